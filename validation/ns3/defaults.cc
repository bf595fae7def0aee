// Prints the default value of every attribute of ns-3's TCP classes and of the queue discs a
// dumbbell uses, one "TypeName<TAB>attribute<TAB>default<TAB>help" line each, read at run time
// from the TypeId registry (so the table is the installed ns-3's, not a copy of its sources).
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/traffic-control-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    const char* names[] = {"ns3::TcpSocket",       "ns3::TcpSocketBase", "ns3::TcpL4Protocol",
                           "ns3::TcpNewReno",      "ns3::TcpCubic",      "ns3::TcpPrrRecovery",
                           "ns3::TcpClassicRecovery", "ns3::RttMeanDeviation", "ns3::TcpTxBuffer",
                           "ns3::TcpRxBuffer",     "ns3::RedQueueDisc",  "ns3::FifoQueueDisc",
                           "ns3::PfifoFastQueueDisc", "ns3::DropTailQueue<Packet>"};
    for (const char* name : names)
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(name, &tid))
        {
            std::cout << name << "\t-\tmissing\t-\n";
            continue;
        }
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            TypeId::AttributeInformation info = tid.GetAttribute(i);
            std::string value = info.initialValue->SerializeToString(info.checker);
            std::string help = info.help;
            for (char& c : help)
            {
                if (c == '\n' || c == '\t')
                {
                    c = ' ';
                }
            }
            std::cout << name << "\t" << info.name << "\t" << value << "\t" << help << "\n";
        }
    }
    return 0;
}
