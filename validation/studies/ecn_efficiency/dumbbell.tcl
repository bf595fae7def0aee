# ns-2.35 scenario of Pentikousis and Badr, "On the Resource Efficiency of Explicit Congestion
# Notification", NETWORKING 2002 (LNCS 2345): n clients each download 11 serial 100 KB files from
# one server over a 1.5 Mb/s bottleneck whose router-B queue is DropTail, RED or RED with ECN.
#
#   ns dumbbell.tcl N DELAY_MS ERRORS(0|1) QUEUE(DT|RED|ECN) QL SEED REPLICATION OUT_PREFIX
#
# Writes OUT_PREFIX.tr (packet trace of the server's and the clients' links), OUT_PREFIX.tt
# (one line per transfer: client, file, start, end, the agent's retransmission timeouts nrexmit_)
# and, for RED, OUT_PREFIX.ave (RED's average queue). REPLICATION r draws the errors from the r-th
# substream of each error model's RNG (the ns manual's recipe for independent replications,
# "Mathematical Support", RNG); replication 0 is the RNG's first substream.
# Everything not set here is ns-2.35's default (read by ns2_defaults.tcl).
set n [lindex $argv 0]
set delay_ms [lindex $argv 1]
set errors [lindex $argv 2]
set queue [lindex $argv 3]
set ql [lindex $argv 4]
set seed [lindex $argv 5]
set replication [lindex $argv 6]
set prefix [lindex $argv 7]

set files_per_client 11
set segments 70
set mss 1460
# The paper's Table 1: RED thresholds per buffer size.
array set minth {16 5 32 10 64 20 128 40}
array set maxth {16 15 32 30 64 60 128 120}

set ns [new Simulator]
ns-random $seed
global defaultRNG
$defaultRNG seed $seed

Agent/TCP set packetSize_ $mss
Agent/TCP set window_ [expr 65535 / $mss]
if {$queue == "ECN"} { Agent/TCP set ecn_ 1 }

set server [$ns node]
set B [$ns node]
set A [$ns node]
$ns duplex-link $server $B 10Mb 0.5ms DropTail
$ns queue-limit $server $B 1000
$ns queue-limit $B $server 1000
if {$queue == "DT"} {
    $ns simplex-link $B $A 1.5Mb ${delay_ms}ms DropTail
} else {
    Queue/RED set thresh_ $minth($ql)
    Queue/RED set maxthresh_ $maxth($ql)
    Queue/RED set q_weight_ 0.002
    Queue/RED set linterm_ 10
    Queue/RED set gentle_ true
    Queue/RED set queue_in_bytes_ false
    Queue/RED set setbit_ [expr {$queue == "ECN" ? "true" : "false"}]
    $ns simplex-link $B $A 1.5Mb ${delay_ms}ms RED
}
$ns simplex-link $A $B 1.5Mb ${delay_ms}ms DropTail
$ns queue-limit $B $A $ql
$ns queue-limit $A $B 1000

set trace [open $prefix.tr w]
set tt [open $prefix.tt w]
$ns trace-queue $server $B $trace
$ns trace-queue $B $A $trace
for {set i 0} {$i < $n} {incr i} {
    set client($i) [$ns node]
    $ns duplex-link $A $client($i) 10Mb 0.5ms DropTail
    $ns queue-limit $A $client($i) 1000
    $ns queue-limit $client($i) $A 1000
    $ns trace-queue $A $client($i) $trace
    $ns trace-queue $client($i) $A $trace
    if {$errors} {
        # 1 % packet errors on the client's access link, in both directions. link-lossmodel puts
        # the error model after the queue (lossmodel: before it), so the trace shows every errored
        # packet leave the queue: the corrupted segments and all the ACKs the clients send are
        # counted. The transfers are the same with either placement (no packet waits on these links).
        foreach {from to} [list $A $client($i) $client($i) $A] {
            set em [new ErrorModel]
            $em unit pkt
            $em set rate_ 0.01
            set rng [new RNG]
            for {set r 0} {$r < $replication} {incr r} { $rng next-substream }
            set rv [new RandomVariable/Uniform]
            $rv use-rng $rng
            $em ranvar $rv
            $em drop-target [new Agent/Null]
            $ns link-lossmodel $em $from $to
        }
    }
}
if {$queue != "DT"} {
    set redq [[$ns link $B $A] queue]
    set avefile [open $prefix.ave w]
    $redq trace ave_
    $redq attach $avefile
}

# One transfer: a fresh Reno agent pair per file; when the last segment is acknowledged the
# agent's done callback starts the client's next file.
set remaining_end 0
proc start_transfer {i k} {
    global ns server client segments tt files_per_client agent sink remaining_end
    set tcp [new Agent/TCP/Reno]
    set snk [new Agent/TCPSink/DelAck]
    $tcp set fid_ [expr $i * 100 + $k]
    $ns attach-agent $server $tcp
    $ns attach-agent $client($i) $snk
    $ns connect $tcp $snk
    $tcp proc done {} "transfer_done $tcp $i $k [$ns now]"
    set agent($i) $tcp
    set sink($i) $snk
    $tcp advanceby $segments
}
proc transfer_done {tcp i k start} {
    global ns tt files_per_client n remaining_end
    puts $tt "$i $k $start [$ns now] [$tcp set nrexmit_]"
    if {$k + 1 < $files_per_client} {
        $ns at [$ns now] "start_transfer $i [expr $k + 1]"
    } else {
        incr remaining_end
        if {$remaining_end == $n} { $ns at [expr [$ns now] + 0.001] "finish" }
    }
}
proc finish {} {
    global ns trace tt
    $ns flush-trace
    close $trace
    close $tt
    exit 0
}
for {set i 0} {$i < $n} {incr i} { $ns at 0.0 "start_transfer $i 0" }
$ns at 3600.0 "finish"
$ns run
