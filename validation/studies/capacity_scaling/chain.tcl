# ns-2.35 scenario of Panarello, Lombardo, Schembra, Meo, Mellia, Ajmone Marsan, "Network
# interface power management and TCP congestion control: a troubled marriage", Australian
# Journal of Electrical and Electronics Engineering 13(1), 2016, §6.1: one NewReno flow over
# S - N1 - N2 - N3 - D, N1->N2 at 10 Mb/s with or without practRA.
#
#   ns chain.tcl RTT_S MRCI_S(0 = TCPonly) SAMPLE_S DURATION_S BON_S BN_S REPLICATION TRACE OUT_PREFIX
#
# BON_S > 0 adds §6.2's background: from B (on N1) to D, UDP CBR at 10 Mb/s in 1500 B packets in
# a burst every second (fixed phase) of Exp(BON_S) length truncated at 1 s. BN_S > 0 adds §6.3's
# bottleneck: N2->N3's bandwidth_ redrawn from U[1, 10] Mb/s every Exp(BN_S) (initially 10 Mb/s).
# The background and the bottleneck each draw from their own RNG stream; replication k (from 0) uses
# substream k of both, the replication method of the ns Manual's "Random Numbers" chapter (ns-2.35
# tools/rng.cc, next-substream): independent runs, each reproducible.
# TRACE 1 writes OUT_PREFIX.trace: time, arrival rate and service rate at N1->N2 per 100 ms.
#
# ns-2.35 has no rate-adaptation module: practRA is emulated by a Tcl procedure that polls the
# N1->N2 queue every POLL_S (1 ms), samples the arrival rate every SAMPLE_S, keeps the EWMA
# prediction and, at most once per mRCI, sets the link's bandwidth_ one 1 Mb/s step up or down by
# Nedevschi et al.'s rules (d = 10 ms, delta = 1 ms, w = 0.25). Fidelity: decisions at 1 ms
# polls instead of at every packet arrival and departure; a new rate applies from the next
# packet transmission; the delta = 1 ms transition does not stop the link (wattnet's does).
# Writes OUT_PREFIX.out: one "key value" line per measure.
set rtt [lindex $argv 0]
set mrci [lindex $argv 1]
set sample [lindex $argv 2]
set duration [lindex $argv 3]
set bon [lindex $argv 4]
set bn [lindex $argv 5]
set replication [lindex $argv 6]
set tracing [lindex $argv 7]
set prefix [lindex $argv 8]

set ns [new Simulator]
Agent/TCP set packetSize_ 1460
# The paper's TCPonly flow fills the 10 Mb/s link at RTT 100 ms (its Fig. 4b): the window must
# exceed the BDP, so ns-2's default window_ of 20 packets is not the paper's.
Agent/TCP set window_ 100000

set buffer [expr {max(2, int(ceil(10e6 * $rtt / 8 / 1500.0)))}]
foreach name {S N1 N2 N3 D B} { set node($name) [$ns node] }
set hop [expr {$rtt / 4.0}]
$ns duplex-link $node(S) $node(N1) 100Mb 0ms DropTail
$ns duplex-link $node(N1) $node(N2) 10Mb ${hop}s DropTail
$ns duplex-link $node(N2) $node(N3) 10Mb ${hop}s DropTail
$ns duplex-link $node(N3) $node(D) 100Mb 0ms DropTail
$ns duplex-link $node(B) $node(N1) 100Mb 0ms DropTail
# Every router output buffers one BDP; the hosts' own outputs 1000 packets (as wattnet's chain).
foreach {a b} {S N1 B N1 D N3} { $ns queue-limit $node($a) $node($b) 1000 }
foreach {a b} {N1 N2 N2 N3 N3 D N1 S N1 B N2 N1 N3 N2} { $ns queue-limit $node($a) $node($b) $buffer }

set tcp [new Agent/TCP/Newreno]
set sink [new Agent/TCPSink]
$ns attach-agent $node(S) $tcp
$ns attach-agent $node(D) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

if {$bon > 0} {
    set udp [new Agent/UDP]
    set udp_sink [new Agent/Null]
    $ns attach-agent $node(B) $udp
    $ns attach-agent $node(D) $udp_sink
    $ns connect $udp $udp_sink
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 1500
    $udp set packetSize_ 1500
    $cbr set rate_ 10Mb
    $cbr attach-agent $udp
    set burst_rng [new RNG]
    for {set k 0} {$k < $replication} {incr k} { $burst_rng next-substream }
    for {set k 0} {$k < $duration} {incr k} {
        set length [expr {min(1.0, [$burst_rng exponential $bon])}]
        $ns at $k "$cbr start"
        $ns at [expr {$k + $length}] "$cbr stop"
    }
}
if {$bn > 0} {
    set link23 [[$ns link $node(N2) $node(N3)] link]
    set bn_rng [new RNG]
    for {set k 0} {$k < $replication} {incr k} { $bn_rng next-substream }
    proc redraw_bottleneck {} {
        global ns link23 bn_rng bn
        $link23 set bandwidth_ [$bn_rng uniform 1e6 10e6]
        $ns at [expr {[$ns now] + [$bn_rng exponential $bn]}] "redraw_bottleneck"
    }
    $ns at [$bn_rng exponential $bn] "redraw_bottleneck"
}

set null [open /dev/null w]
set qm12 [$ns monitor-queue $node(N1) $node(N2) $null]
# Per-flow drop counters on the TCP flow's path (fid 1 = TCP, 2 = background).
$tcp set fid_ 1
if {$bon > 0} { $udp set fid_ 2 }
foreach {a b} {N1 N2 N2 N3 N3 D} {
    set fmon($a$b) [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $node($a) $node($b)] $fmon($a$b)
}
proc tcp_drops {} {
    global fmon
    set drops 0
    foreach key [array names fmon] {
        foreach flow [$fmon($key) flows] {
            if {[$flow set flowid_] == 1} { incr drops [$flow set pdrops_] }
        }
    }
    return $drops
}
# The background's packets offered to N1->N2 (its 100 Mb/s access link loses none).
proc background_packets {} {
    global fmon
    foreach flow [$fmon(N1N2) flows] {
        if {[$flow set flowid_] == 2} { return [$flow set parrivals_] }
    }
    return 0
}
set link12 [[$ns link $node(N1) $node(N2)] link]

# practRA state: rate index (Mb/s), prediction, last change, rate integral.
set rate 10
set predicted 10e6
set last_change -1e9
set last_sample_bytes 0
set rate_changes 0
set rate_seconds 0.0
set rate_since 0.0
set poll 0.001
set d 0.010
set delta 0.001
set w 0.25

proc set_rate {now new} {
    global rate link12 rate_changes rate_seconds rate_since last_change
    set rate_seconds [expr {$rate_seconds + $rate * ($now - $rate_since)}]
    set rate_since $now
    set rate $new
    $link12 set bandwidth_ [expr {$new * 1e6}]
    incr rate_changes
    set last_change $now
}
proc decide {now} {
    global rate predicted last_change mrci qm12 d delta
    if {$now - $last_change < $mrci} { return }
    set q [expr {[$qm12 set size_] * 8.0}]
    set r_i [expr {$rate * 1e6}]
    if {$rate < 10 && ($q / $r_i > $d || ($delta * $predicted + $q) / (($rate + 1) * 1e6) > $d - $delta)} {
        set_rate $now [expr {$rate + 1}]
    } elseif {$rate > 1 && $q == 0 && $predicted < ($rate - 1) * 1e6} {
        set_rate $now [expr {$rate - 1}]
    }
}
proc sample_tick {} {
    global ns qm12 last_sample_bytes predicted w sample
    set now [$ns now]
    set arrived [$qm12 set barrivals_]
    set a [expr {($arrived - $last_sample_bytes) * 8.0 / $sample}]
    set last_sample_bytes $arrived
    set predicted [expr {(1 - $w) * $predicted + $w * $a}]
    decide $now
    $ns at [expr {$now + $sample}] "sample_tick"
}
proc poll_tick {} {
    global ns poll
    set now [$ns now]
    decide $now
    $ns at [expr {$now + $poll}] "poll_tick"
}
if {$mrci > 0} {
    $ns at $sample "sample_tick"
    $ns at $poll "poll_tick"
}

if {$tracing} {
    set trace_file [open $prefix.trace w]
    set traced_bytes 0
    proc trace_tick {} {
        global ns qm12 trace_file traced_bytes rate
        set now [$ns now]
        set arrived [$qm12 set barrivals_]
        puts $trace_file "$now [expr {($arrived - $traced_bytes) * 8.0 / 0.1}] [expr {$rate * 1e6}]"
        set traced_bytes $arrived
        $ns at [expr {$now + 0.1}] "trace_tick"
    }
    $ns at 0.1 "trace_tick"
}

proc finish {} {
    global ns tcp sink duration prefix rate rate_seconds rate_since rate_changes
    set out [open $prefix.out w]
    set rate_seconds [expr {$rate_seconds + $rate * ($duration - $rate_since)}]
    puts $out "mean_rate_mbps [expr {$rate_seconds / $duration}]"
    puts $out "rate_changes $rate_changes"
    puts $out "delivered_packets [$tcp set ack_]"
    puts $out "data_packets_sent [$tcp set ndatapack_]"
    puts $out "retransmissions [$tcp set nrexmitpack_]"
    puts $out "timeouts [$tcp set nrexmit_]"
    puts $out "dropped_packets [tcp_drops]"
    puts $out "background_packets [background_packets]"
    close $out
    global tracing trace_file
    if {$tracing} { close $trace_file }
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at $duration "finish"
$ns run
