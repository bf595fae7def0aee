# How ns-2.35's Agent/TCP/Vegas moves its window, for the rules of wattnet's ns2 Vegas variant
# (docs/models/congestion-control.md, docs/ns2-compatibility.md). One Vegas flow (TCPSink, 1000-byte
# packets, window_ 1000) over a 10 Mb/s, 10 ms link whose DropTail buffer holds LIMIT packets; an
# ErrorModel/List drops the packets numbered in DROPS ("none": no drops). Every change of cwnd_,
# ssthresh_ and nrexmit_ (timeouts) is printed as "TIME 0 0 1 0 VARIABLE VALUE".
#
#   ns vegas.tcl LIMIT DROPS DURATION
#
# Measured (ns-2.35+dfsg-5):
#   ns vegas.tcl 1000 none 0.5      slow start 2 → 3 → 6 → 12 → 24, then before any loss ssthresh_ 2
#                                   and cwnd_ 24 → 21 (a cut of 1/8) at 0.208 s; avoidance +1/cwnd per
#                                   ACK; cwnd_ settles at 27.8 (BDP 26: 1.8 packets queued).
#   ns vegas.tcl 1000 300 1.5       packet 300 lost at cwnd_ 25.9: cwnd_ 25 − 25/4 = 19 (+2 duplicate
#                                   ACKs: 21, then +1 per duplicate ACK), deflated to 19 by the first
#                                   new ACK; the retransmission is sent on the second duplicate ACK,
#                                   by Vegas's fine-grained timeout.
#   ns vegas.tcl 1000 "300 301 ... 335" 2.0
#                                   the window lost: a timeout sets ssthresh_ 12 and cwnd_ 1, then 2.
lassign $argv limit drops duration
Agent/TCP set window_ 1000
Agent/TCP set packetSize_ 1000
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 10Mb 10ms DropTail
$ns queue-limit $a $b $limit
if {$drops != "none"} {
    set em [new ErrorModel/List]
    eval $em droplist $drops
    $ns lossmodel $em $a $b
}
set tcp [new Agent/TCP/Vegas]
set sink [new Agent/TCPSink]
$ns attach-agent $a $tcp
$ns attach-agent $b $sink
$ns connect $tcp $sink
$tcp attach stdout
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp trace nrexmit_
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
$ns at $duration "exit 0"
$ns run
