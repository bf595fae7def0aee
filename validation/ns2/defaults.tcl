# Prints ns-2's defaults, read at run time (run: ns validation/ns2/defaults.tcl).
#
# "default CLASS VARIABLE VALUE": every variable each class sets itself; a subclass lists only
# what it overrides and inherits the rest from the class before it.
# "red RATE VARIABLE VALUE": what Queue/RED computes at the start of a run from its automatic
# defaults (thresh_ 0, maxthresh_ 0, q_weight_ -1) on a link of RATE and 10 ms delay.
foreach cls {Agent/TCP Agent/TCP/Reno Agent/TCP/Newreno Agent/TCP/Vegas Agent/TCPSink Agent/TCPSink/DelAck
             Queue Queue/DropTail Queue/RED DelayLink} {
    foreach var [lsort [$cls info vars]] {
        puts "default $cls $var [$cls set $var]"
    }
}
set ns [new Simulator]
set rates {1.5Mb 10Mb 100Mb}
foreach rate $rates {
    set a [$ns node]
    set b [$ns node]
    $ns duplex-link $a $b $rate 10ms RED
    set red($rate) [[$ns link $a $b] queue]
}
proc show {} {
    global red rates
    foreach rate $rates {
        foreach var {thresh_ maxthresh_ q_weight_ cur_max_p_} {
            puts "red $rate $var [$red($rate) set $var]"
        }
    }
    exit 0
}
$ns at 0.001 show
$ns run
