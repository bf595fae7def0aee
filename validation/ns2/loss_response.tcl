# How ns-2's one-way agents set ssthresh_ and cwnd_ on a loss, run for each CASE below:
#   ns validation/ns2/loss_response.tcl CASE
#
# One agent sends SEGMENTS packets over a 10 Mb/s, 10 ms link with a large buffer; an ErrorModel/List
# drops the packets numbered in DROPS (0 = the first packet that crosses the link, retransmissions
# included). Every change of cwnd_, ssthresh_ and nrexmit_ (timeouts) is printed as
# "TIME 0 0 1 0 VARIABLE VALUE" (ns-2's variable trace). syn_ false and singledup_ 0, so packet k is segment k and there is no
# limited transmit; window_ 100 so that the window is not what stops the sender.
#
# The cases (docs/ns2-compatibility.md says what each shows):
#   cwnd-rule       NewReno, windowInit_ 19, 15 segments, segment 1 lost: the third duplicate ACK
#                   halves cwnd_ (19: ssthresh_ 9, cwnd_ 9.5), not the 14 segments in flight (7).
#   every-timeout   as cwnd-rule, and the fast retransmission of 1 is lost too: the timeout in
#                   fast recovery halves again (ssthresh_ 9 -> 4).
#   reno-bugfix     Reno, windowInit_ 20, segments 1 and 5 lost, bugFix_ true: one fast retransmit
#                   (ssthresh_ 10), then segment 5 waits for the timer (ssthresh_ 5, cwnd_ 1).
#   reno-nobugfix   the same with bugFix_ false: a second fast retransmit (ssthresh_ 5, cwnd_ 5.05).
set cases {
    cwnd-rule {/Newreno 15 19 {1} true}
    every-timeout {/Newreno 15 19 {1 15} true}
    reno-bugfix {/Reno 60 20 {1 5} true}
    reno-nobugfix {/Reno 60 20 {1 5} false}
}
if {$argc != 1 || ![dict exists $cases [lindex $argv 0]]} {
    puts stderr "usage: ns loss_response.tcl CASE, CASE one of [dict keys $cases]"
    exit 1
}
lassign [dict get $cases [lindex $argv 0]] agent segments init drops bugfix
Agent/TCP set window_ 100
Agent/TCP set windowInit_ $init
Agent/TCP set syn_ false
Agent/TCP set singledup_ 0
Agent/TCP set bugFix_ $bugfix
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 10Mb 10ms DropTail
$ns queue-limit $a $b 1000
set em [new ErrorModel/List]
eval $em droplist $drops
$ns lossmodel $em $a $b
set tcp [new Agent/TCP$agent]
set sink [new Agent/TCPSink]
$ns attach-agent $a $tcp
$ns attach-agent $b $sink
$ns connect $tcp $sink
$tcp attach stdout
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp trace nrexmit_
$ns at 0.0 "$tcp send [expr {$segments * 1000}]"
$ns at 0.3 "exit 0"
$ns run
