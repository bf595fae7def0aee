# How ns-2.35's TCP-Linux agent (BIC, CUBIC) finds a lost retransmission and restarts its timer, and
# that its Sack1 agent does neither:
#   ns validation/ns2/lost_retransmission.tcl bic|cubic|reno|sack1 DROPS [RATE SEGMENTS [SINK]]
#
# One Agent/TCP/Linux running the named module (sack1: an Agent/TCP/Sack1) with a SACK receiver
# (Agent/TCPSink/Sack1; SINK plain: Agent/TCPSink, no SACK) sends SEGMENTS packets (default 60) over a RATE (default 10Mb), 10 ms link
# with a large buffer, windowInit_ 20, syn_ false (packet k is segment k). An
# ErrorModel/List after the queue drops the transmissions numbered in DROPS (0 = the first packet
# that crosses the link, retransmissions included). Printed: every transmission of a packet sent
# more than once ("sent SEQ TIME") with the last ACK that arrived at or before its last transmission,
# the agent's ssthresh_ changes and its timeouts (nrexmit_).
#
# With DROPS "1 25" packet 1 and its first retransmission (the 26th transmission) are lost. The
# scoreboard (scoreboard1.cc, ScoreBoard1::UpdateScoreBoard) marks a retransmitted packet lost again
# once a packet at or above the snd_nxt recorded when it was resent (MarkRetran(seq, t_seqno_)) is
# SACKed, or once a retransmission more than dupack_threshold (3, the default argument) + 1 later
# is acknowledged. Measured
# (ns-2.35+dfsg-5), bic: packet 1 sent at 0, 0.024998 (packets 0-24 sent, so snd_nxt 25) and
# 0.047533, when the SACK of packet 25 (sent 0.026662) arrives: 0.026662 + 0.000832 (1040 B at
# 10 Mb/s) + 0.010 + 0.0000384 (48-byte SACK ACK) + 0.010 = 0.0475324. ssthresh_ 100 -> 16
# (BIC's beta 0.8 of cwnd 20) once, timeouts 0. cubic: the same (ssthresh_ 16); reno: the same
# times, ssthresh_ 10, timeouts 0. With DROPS "1" packet 1 is sent twice (0, 0.024998).
# sack1, DROPS "1 23" (Sack1 resends packet 1 at 0.024166, the 24th transmission): ssthresh_ 10,
# and the lost retransmission waits for the timer: packet 1 sent a third time at 0.224166
# (minrto_ 0.2 s), nrexmit_ 1, ssthresh_ 5.
#
# The timer (tcp-linux.cc time_processing(): renew_timer on every ACK, duplicates included): bic,
# DROPS "1 20", RATE 1Mb, SEGMENTS 20: no data is sent after the retransmission of packet 1
# (0.069984, on the fourth duplicate ACK), so nothing finds it lost; the duplicate ACKs of packets
# 2-19 arrive every 8.32 ms up to 0.186464 and the timeout fires at 0.386464 (nrexmit_ 1,
# ssthresh_ 16 -> 12), minrto_ 0.2 s after the last of them. sack1, same arguments: it resends
# packet 1 at 0.061664 (third duplicate ACK) and times out at 0.261664, 0.2 s after that.
#
# Without SACK the TCP-Linux agent's scoreboard learns nothing from duplicate ACKs, so it never
# retransmits before the timer: bic, DROPS "1", RATE 10Mb, SEGMENTS 60, SINK plain: packet 1 is
# resent at 0.242528 (nrexmit_ 1), 0.2 s after the last duplicate ACK (0.042528).
if {$argc < 2 || $argc == 3 || $argc > 5} {
    puts stderr "usage: ns lost_retransmission.tcl bic|cubic|reno|sack1 DROPS \[RATE SEGMENTS \[SINK\]\]"
    exit 1
}
lassign $argv cc drops rate segments sink_type
if {$argc == 2} { set rate 10Mb; set segments 60 }
if {$argc < 5} { set sink_type sack1 }
Agent/TCP set window_ 100
Agent/TCP set windowInit_ 20
Agent/TCP set syn_ false
Agent/TCP set packetSize_ 1000
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b $rate 10ms DropTail
$ns queue-limit $a $b 1000
set trace_file /tmp/lost_retransmission.[pid].tr
set tr [open $trace_file w]
$ns trace-queue $a $b $tr
$ns trace-queue $b $a $tr
set em [new ErrorModel/List]
eval $em droplist $drops
$ns link-lossmodel $em $a $b
if {$cc == "sack1"} {
    set tcp [new Agent/TCP/Sack1]
} else {
    set tcp [new Agent/TCP/Linux]
    $ns at 0 "$tcp select_ca $cc"
}
if {$sink_type == "plain"} { set sink [new Agent/TCPSink] } else { set sink [new Agent/TCPSink/Sack1] }
$ns attach-agent $a $tcp
$ns attach-agent $b $sink
$ns connect $tcp $sink
$tcp attach stdout
$tcp trace ssthresh_
$tcp trace nrexmit_
$ns at 0.0 "$tcp send [expr {$segments * 1000}]"
proc done {} {
    global tr trace_file
    close $tr
    # Every enqueue ("+") of a data packet: time and sequence number.
    set f [open $trace_file r]
    set sends [dict create]
    set acks {}
    while {[gets $f line] >= 0} {
        if {[lindex $line 0] == "+" && [lindex $line 4] == "tcp"} {
            dict lappend sends [lindex $line 10] [lindex $line 1]
        }
        if {[lindex $line 0] == "r" && [lindex $line 4] == "ack"} { lappend acks [lindex $line 1] }
    }
    close $f
    file delete $trace_file
    dict for {seq times} $sends {
        if {[llength $times] > 1} {
            foreach t $times { puts "sent $seq $t" }
            # The last ACK to arrive at or before the last transmission of the packet: the one that
            set before 0
            # sent it, or, after a timeout, the last before the timer fired.
            foreach t $acks { if {$t <= [lindex $times end]} { set before $t } }
            puts "last ACK at or before it $before"
        }
    }
    exit 0
}
$ns at 3 "done"
$ns run
