# ns-2.35's TCP-Linux agent (BIC, CUBIC) reduces ssthresh on every timeout, as its own agents do:
# tcp-linux.cc enter_loss() calls the module's ssthresh() on each timeout, the once-per-window test
# of Linux's tcp_enter_loss left out. One flow, 10 Mb/s, RTT 20 ms, a DropTail buffer of LIMIT
# packets, 40 s; with a SACK receiver the flow rarely times out, with a plain TCPSink (no SACK) each
# timeout halves a window of one or two segments again and the flow times out tens of times.
#
#   ns linux_timeouts.tcl bic|cubic LIMIT sack|nosack
#
# Measured (ns-2.35+dfsg-5): LIMIT 25, SACK: BIC and CUBIC 0 timeouts, 47 945 segments acknowledged
# (99.7 % of the link); no SACK: BIC 81 timeouts (11 862 segments), CUBIC 65 (23 574). LIMIT 50,
# no SACK: BIC 68, CUBIC 52.
set ns [new Simulator]
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100000
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 100Mb 0ms DropTail
$ns duplex-link $r $d 10Mb 10ms DropTail
$ns queue-limit $s $r 1000
$ns queue-limit $r $d [lindex $argv 1]
set tcp [new Agent/TCP/Linux]
if {[lindex $argv 2] == "sack"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
$ns attach-agent $s $tcp
$ns attach-agent $d $sink
$ns connect $tcp $sink
$ns at 0 "$tcp select_ca [lindex $argv 0]"
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
proc done {} {
    global tcp
    puts "timeouts [$tcp set nrexmit_] acknowledged [$tcp set ack_] retransmitted [$tcp set nrexmitpack_]"
    exit 0
}
$ns at 40.0 "done"
$ns run
