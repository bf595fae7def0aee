# ns-2.35 scenario of Sassu, Scarso, Cuomo, "TCP behavior over a greened network", IEEE SustainIT
# 2012: one bulk TCP flow over ABILENE (40 Mb/s links, CBR background at 25 % of every link) while
# the links ESTOP picks are switched off on every router at once at t = 30 s.
#
#   ns abilene.tcl SCENARIO_TCL VARIANT OUT_PREFIX
#
# SCENARIO_TCL (written by run.py from wattnet's own scenario) sets: nodes, links {a b rate_bps
# delay_s limit_packets}, cbr {src dst rate_bps bytes start_s}, tcp_src, tcp_dst, links_off {a b},
# switch_off_s, duration_s. VARIANT is Tahoe, Reno, NewReno, Vegas (ns-2.35's own agents), BIC or
# CUBIC (ns-2.35's TCP-Linux agent with a SACK receiver). Routing: ns-2.35's Session routing, a
# global shortest-path recomputation at the instant the links go down (wattnet re-routes 30 ms
# later, the paper's transition period). Writes OUT_PREFIX.out (acknowledged segments at the
# switch-off and at the end) and OUT_PREFIX.cwnd (time, cwnd, ssthresh, srtt every 10 ms).
source [lindex $argv 0]
set variant [lindex $argv 1]
set prefix [lindex $argv 2]

set ns [new Simulator]
$ns rtproto Session
Agent/TCP set packetSize_ 1000
# The paper's BIC and CUBIC reach 27 Mb/s on a path of tens of ms: ns-2.35's window_ of 20 packets
# cannot, so the window is left out of the way.
Agent/TCP set window_ 100000

foreach name $nodes { set node($name) [$ns node] }
foreach link $links {
    lassign $link a b rate delay limit
    $ns duplex-link $node($a) $node($b) $rate [expr {$delay}] DropTail
    $ns queue-limit $node($a) $node($b) $limit
    $ns queue-limit $node($b) $node($a) $limit
}
set k 0
foreach flow $cbr {
    lassign $flow src dst rate bytes start
    set udp($k) [new Agent/UDP]
    set null($k) [new Agent/Null]
    $ns attach-agent $node($src) $udp($k)
    $ns attach-agent $node($dst) $null($k)
    $ns connect $udp($k) $null($k)
    set app($k) [new Application/Traffic/CBR]
    $app($k) set packetSize_ $bytes
    $udp($k) set packetSize_ $bytes
    $app($k) set rate_ $rate
    $app($k) attach-agent $udp($k)
    $ns at $start "$app($k) start"
    incr k
}
switch $variant {
    Tahoe { set tcp [new Agent/TCP]; set sink [new Agent/TCPSink] }
    Reno { set tcp [new Agent/TCP/Reno]; set sink [new Agent/TCPSink] }
    NewReno { set tcp [new Agent/TCP/Newreno]; set sink [new Agent/TCPSink] }
    Vegas { set tcp [new Agent/TCP/Vegas]; set sink [new Agent/TCPSink] }
    BIC { set tcp [new Agent/TCP/Linux]; set sink [new Agent/TCPSink/Sack1] }
    CUBIC { set tcp [new Agent/TCP/Linux]; set sink [new Agent/TCPSink/Sack1] }
}
$ns attach-agent $node($tcp_src) $tcp
$ns attach-agent $node($tcp_dst) $sink
$ns connect $tcp $sink
if {$variant == "BIC"} { $ns at 0 "$tcp select_ca bic" }
if {$variant == "CUBIC"} { $ns at 0 "$tcp select_ca cubic" }
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

foreach link $links_off {
    lassign $link a b
    $ns rtmodel-at $switch_off_s down $node($a) $node($b)
}

set cwnd_file [open $prefix.cwnd w]
set tick [Agent/TCP set tcpTick_]
# srtt_ counts tcpTick_/8 in ns-2.35's own agents; the TCP-Linux agent keeps it on another scale,
# so its SRTT is not reported.
set linux [expr {$variant == "BIC" || $variant == "CUBIC"}]
proc sample {} {
    global ns tcp cwnd_file tick linux
    set now [$ns now]
    if {$linux} { set srtt nan } else { set srtt [expr {[$tcp set srtt_] * $tick / 8.0}] }
    puts $cwnd_file "$now [$tcp set cwnd_] [$tcp set ssthresh_] $srtt"
    $ns at [expr {$now + 0.01}] "sample"
}
$ns at 0.01 "sample"
set acked_at_switch_off 0
$ns at $switch_off_s {set acked_at_switch_off [$tcp set ack_]}
proc finish {} {
    global tcp prefix acked_at_switch_off cwnd_file
    set out [open $prefix.out w]
    puts $out "acked_at_switch_off $acked_at_switch_off"
    puts $out "acked_at_end [$tcp set ack_]"
    close $out
    close $cwnd_file
    exit 0
}
$ns at $duration_s "finish"
$ns run
