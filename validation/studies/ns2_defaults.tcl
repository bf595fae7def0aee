# Prints the ns-2.35 defaults the reproductions' parameter tables cite as "ns-2.35 default":
#   ns validation/studies/ns2_defaults.tcl
foreach {cls var} {Agent/TCP window_ Agent/TCP packetSize_ Agent/TCP windowInit_ Agent/TCP tcpTick_ Agent/TCP minrto_ Agent/TCP maxrto_ Agent/TCP rtxcur_init_ Agent/TCPSink/DelAck interval_ Agent/TCP syn_ Agent/TCP maxburst_ Agent/TCP max_ssthresh_ Agent/TCP ecn_ Queue limit_ Queue/RED thresh_ Queue/RED maxthresh_ Queue/RED q_weight_ Queue/RED linterm_ Queue/RED gentle_ Queue/RED mean_pktsize_ Queue/RED setbit_ Queue/RED queue_in_bytes_ Queue/RED bytes_ Application/Traffic/CBR packetSize_ Application/Traffic/CBR rate_ Agent/TCP overhead_ Agent/TCP/FullTcp segsize_ Agent/TCP ts_resetRTO_ Agent/TCP singledup_} {
  if {[catch {puts "$cls $var = [$cls set $var]"} err]} {puts "$cls $var: $err"}
}
