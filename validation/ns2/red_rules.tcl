# The rules of ns-2.35's Queue/RED that wattnet's `ns2` RED preset reproduces, one CASE per run:
#   ns validation/ns2/red_rules.tcl CASE
# Every case prints one line "CASE key value ..."; red_rules.txt beside this file holds the output of
# all of them (docs/models/queue-management.md §2 says what each shows and the numbers wattnet gives).
#
# A source sends 1040-byte UDP packets over a 1 Gb/s link to a router whose 1 Mb/s, 10 ms output link
# has the queue under test; a LossMonitor counts what crosses it, a queue monitor what it drops.
#   buffer-bytes    RED with its defaults (queue_in_bytes_ and bytes_ true, mean_pktsize_ 500),
#                   thresholds far above, limit_ 50: a burst of 100 into the idle link. The buffer is
#                   limit_ x mean_pktsize_ = 25 000 bytes, refused only once the bytes waiting reach it.
#   buffer-packets  the same with queue_in_bytes_ false: limit_ packets wait besides the one in service.
#   buffer-droptail DropTail, limit_ 50: the packet in service counts.
#   backlog         RED in packets, q_weight_ 1 (the average is the queue), thresh_ 0.5, maxthresh_ 0.6,
#                   gentle_ false, wait_ false, bytes_ false: a burst of 10. No early drop while at most
#                   one packet waits; the first arrival with a backlog above thresh_ passes (count 1);
#                   then p_b = 1 drops every arrival.
#   backlog-forced  the same with use_mark_p_ false: the forced branch drops the first arrival with a
#                   backlog.
#   spacing-packets RED in packets, the average held at 10 (ave_ set, q_weight_ 1e-12; thresh_ 5,
#                   maxthresh_ 15: p_b = 0.05), wait_ true, bytes_ false; 1040-byte packets at 2 Mb/s
#                   for 200 s into the 1 Mb/s link with a buffer that never fills: early drops per arrival.
#   spacing-bytes   the same with bytes_ true: count = bytes since the last drop / mean_pktsize_, and
#                   the spread probability scaled by size / mean_pktsize_.
#   mark-low        one Reno flow with ECN (window_ 1000) into RED with setbit_ true, the average held at
#                   12 (p_b = 0.07 <= mark_p_ 0.1) for 100 s: marks and early drops.
#   mark-high       the average held at 20 (gentle: p_b = 0.1 + 0.9 x 5/15 = 0.4 > mark_p_): drops, not marks.
#   mark-high-nouse the same with use_mark_p_ false: marks again.
set cases {
    buffer-bytes {burst RED {} 100}
    buffer-packets {burst RED {queue_in_bytes_ false} 100}
    buffer-droptail {burst DropTail {} 100}
    backlog {burst RED {queue_in_bytes_ false bytes_ false q_weight_ 1 thresh_ 0.5 maxthresh_ 0.6 gentle_ false wait_ false} 10}
    backlog-forced {burst RED {queue_in_bytes_ false bytes_ false q_weight_ 1 thresh_ 0.5 maxthresh_ 0.6 gentle_ false wait_ false use_mark_p_ false} 10}
    spacing-packets {stream RED {queue_in_bytes_ false bytes_ false q_weight_ 1e-12 thresh_ 5 maxthresh_ 15} 10}
    spacing-bytes {stream RED {queue_in_bytes_ false bytes_ true q_weight_ 1e-12 thresh_ 5 maxthresh_ 15} 10}
    mark-low {tcp RED {queue_in_bytes_ false bytes_ false q_weight_ 1e-12 thresh_ 5 maxthresh_ 15 setbit_ true} 12}
    mark-high {tcp RED {queue_in_bytes_ false bytes_ false q_weight_ 1e-12 thresh_ 5 maxthresh_ 15 setbit_ true} 20}
    mark-high-nouse {tcp RED {queue_in_bytes_ false bytes_ false q_weight_ 1e-12 thresh_ 5 maxthresh_ 15 setbit_ true use_mark_p_ false} 20}
}
if {$argc != 1 || ![dict exists $cases [lindex $argv 0]]} {
    puts stderr "usage: ns red_rules.tcl CASE, CASE one of [dict keys $cases]"
    exit 1
}
set case [lindex $argv 0]
lassign [dict get $cases $case] kind queue settings value
if {$kind == "burst"} {
    # Thresholds far above the buffer: only the buffer limit drops (overridden by the backlog cases).
    Queue/RED set thresh_ 1000
    Queue/RED set maxthresh_ 2000
}
foreach {name v} $settings { Queue/RED set $name $v }
set ns [new Simulator]
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 1Gb 0ms DropTail
$ns duplex-link $r $d 1Mb 10ms $queue
$ns queue-limit $s $r 100000
$ns queue-limit $r $d [expr {$kind == "burst" ? 50 : 100000}]
set monitor [$ns monitor-queue $r $d ""]
set sink [new Agent/LossMonitor]
$ns attach-agent $d $sink
if {$kind == "tcp"} {
    Agent/TCP set window_ 1000
    set tcp [new Agent/TCP/Reno]
    $tcp set ecn_ 1
    set tcpsink [new Agent/TCPSink]
    $ns attach-agent $s $tcp
    $ns attach-agent $d $tcpsink
    $ns connect $tcp $tcpsink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    # CE marks: departures from the RED queue whose fifth trace flag is E (congestion experienced).
    set trace [open red_rules.tr w]
    $ns trace-queue $r $d $trace
    $ns at 0.1 "$ftp start"
    set stop 100.1
} else {
    set udp [new Agent/UDP]
    $udp set packetSize_ 1500
    $ns attach-agent $s $udp
    $ns connect $udp $sink
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 1040
    $cbr attach-agent $udp
    if {$kind == "burst"} {
        $cbr set rate_ 1000Mb
        $cbr set maxpkts_ $value
        set stop 2.0
    } else {
        $cbr set rate_ 2Mb
        set stop 200.1
    }
    $ns at 0.1 "$cbr start"
}
if {$kind != "burst"} {
    # RED's reset at the start of the run zeroes ave_: hold it from just before the first arrival.
    $ns at 0.05 "[[$ns link $r $d] queue] set ave_ $value"
}
proc finish {} {
    global case monitor sink kind
    set arrivals [$monitor set parrivals_]
    set drops [$monitor set pdrops_]
    set line "$case arrivals $arrivals drops $drops accepted [expr {$arrivals - $drops}]"
    if {$kind == "tcp"} {
        global trace
        close $trace
        set marks 0
        set lines [open red_rules.tr r]
        while {[gets $lines l] >= 0} {
            if {[lindex $l 0] == "-" && [string index [lindex $l 6] 4] == "E"} { incr marks }
        }
        close $lines
        file delete red_rules.tr
        append line " marks $marks"
    }
    puts $line
    exit 0
}
$ns at $stop "finish"
$ns run
