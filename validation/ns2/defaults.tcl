# Prints ns-2's class defaults, read at run time: one "Class variable value" line for every
# variable each class sets itself (a subclass lists only what it overrides; the rest it
# inherits from the class before it). Run: ns validation/ns2/defaults.tcl
foreach cls {Agent/TCP Agent/TCP/Reno Agent/TCP/Newreno Agent/TCP/Vegas Agent/TCPSink Agent/TCPSink/DelAck
             Queue Queue/DropTail Queue/RED DelayLink} {
    foreach var [lsort [$cls info vars]] {
        puts "$cls $var [$cls set $var]"
    }
}
