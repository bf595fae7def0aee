// The cross-validation dumbbell for ns-3.44 (python/wattnet/validation/ns3.py renders the
// command line): sender s<i> -- r1 -- r2 -- receiver d<i>, the bottleneck r1->r2 with a FIFO
// or RED (ECN) queue disc, every other queue large enough never to drop. Each flow is an endless
// transfer or a series of equal downloads, each a new connection opened once the receiver holds
// all of the previous one. TCP keeps ns-3's defaults except SegmentSize, the buffers and UseEcn,
// which the command line sets.
//
// Prints one line per flow, "flow i delivered_bytes retransmissions timeouts transfers_completed
// transfer_time_s", then "queue drops marks" for the bottleneck queue disc and device.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

struct FlowSpec
{
    double accessDelay;
    double start;
    uint32_t files; // 0: endless
    uint64_t fileBytes;
};

class Sender;

struct FlowCounters
{
    uint64_t received{0};
    uint32_t retransmissions{0};
    uint32_t timeouts{0};
    uint32_t completed{0};
    double transferTime{0};
    double openedAt{0};
    Ptr<Sender> sender;
};

static void
OnRetransmission(FlowCounters* c,
                 Ptr<const Packet>,
                 const TcpHeader&,
                 const Address&,
                 const Address&,
                 Ptr<const TcpSocketBase>)
{
    ++c->retransmissions;
}

// A retransmission timeout puts the sender into CA_LOSS (TcpSocketBase::ReTxTimeout).
static void
OnCongState(FlowCounters* c, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t next)
{
    if (next == TcpSocketState::CA_LOSS)
    {
        ++c->timeouts;
    }
}

class Sender : public Application
{
  public:
    void Setup(Address peer, const FlowSpec& spec, FlowCounters* counters)
    {
        m_peer = peer;
        m_spec = spec;
        m_counters = counters;
    }

    void OpenConnection()
    {
        m_left = m_spec.fileBytes;
        m_closed = false;
        m_counters->openedAt = Simulator::Now().GetSeconds();
        Ptr<Socket> socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        socket->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&OnRetransmission, m_counters));
        socket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, m_counters));
        socket->Bind();
        socket->Connect(m_peer);
        socket->SetConnectCallback(MakeCallback(&Sender::Connected, this), MakeNullCallback<void, Ptr<Socket>>());
        socket->SetSendCallback(MakeCallback(&Sender::Fill, this));
        m_sockets.push_back(socket);
    }

  private:
    void StartApplication() override
    {
        OpenConnection();
    }

    void StopApplication() override
    {
    }

    void Connected(Ptr<Socket> socket)
    {
        Fill(socket, 0);
    }

    void Fill(Ptr<Socket> socket, uint32_t)
    {
        bool endless = m_spec.files == 0;
        while (endless || m_left > 0)
        {
            uint32_t room = socket->GetTxAvailable();
            if (room == 0)
            {
                break;
            }
            uint32_t size = std::min<uint32_t>(room, 65536);
            if (!endless)
            {
                size = static_cast<uint32_t>(std::min<uint64_t>(size, m_left));
            }
            int sent = socket->Send(Create<Packet>(size));
            if (sent <= 0)
            {
                break;
            }
            if (!endless)
            {
                m_left -= static_cast<uint64_t>(sent);
            }
        }
        if (!endless && m_left == 0 && !m_closed)
        {
            m_closed = true;
            socket->Close();
        }
    }

    Address m_peer;
    FlowSpec m_spec{};
    FlowCounters* m_counters{nullptr};
    uint64_t m_left{0};
    bool m_closed{false};
    std::vector<Ptr<Socket>> m_sockets;
};

static void
OnReceive(FlowCounters* c, const FlowSpec* spec, Ptr<const Packet> packet, const Address&)
{
    c->received += packet->GetSize();
    if (spec->files == 0 || c->completed >= spec->files)
    {
        return;
    }
    if (c->received >= (c->completed + 1) * spec->fileBytes)
    {
        ++c->completed;
        c->transferTime += Simulator::Now().GetSeconds() - c->openedAt;
        if (c->completed < spec->files)
        {
            Simulator::ScheduleNow(&Sender::OpenConnection, c->sender);
        }
    }
}

static std::vector<FlowSpec>
ParseFlows(const std::string& text)
{
    // "delay:start:files:bytes,delay:start:files:bytes,..."
    std::vector<FlowSpec> flows;
    std::stringstream all(text);
    std::string item;
    while (std::getline(all, item, ','))
    {
        FlowSpec f{};
        char colon;
        std::stringstream one(item);
        one >> f.accessDelay >> colon >> f.start >> colon >> f.files >> colon >> f.fileBytes;
        NS_ABORT_MSG_IF(one.fail(), "--flows: cannot read " << item);
        flows.push_back(f);
    }
    return flows;
}

int
main(int argc, char* argv[])
{
    std::string cc = "newreno";
    std::string queue = "droptail";
    std::string flowsText;
    uint32_t limit = 84;
    double rate = 10e6;
    double delay = 0.01;
    double accessRate = 100e6;
    double receiverDelay = 0.001;
    uint32_t accessBuffer = 1000;
    double duration = 30;
    double minTh = 5;
    double maxTh = 15;
    double maxP = 0.1;
    double qw = 0.002;
    bool gentle = true;
    uint32_t meanPktSize = 1500;
    uint32_t segmentSize = 1448;
    uint32_t buffer = 4194304;
    CommandLine cmd;
    cmd.AddValue("cc", "newreno or cubic", cc);
    cmd.AddValue("queue", "droptail or red-ecn", queue);
    cmd.AddValue("flows", "delay:start:files:bytes per flow, comma-separated", flowsText);
    cmd.AddValue("limit", "bottleneck queue disc limit (packets)", limit);
    cmd.AddValue("rate", "bottleneck rate (bit/s)", rate);
    cmd.AddValue("delay", "bottleneck one-way delay (s)", delay);
    cmd.AddValue("accessRate", "access links' rate (bit/s)", accessRate);
    cmd.AddValue("receiverDelay", "receivers' access delay (s)", receiverDelay);
    cmd.AddValue("accessBuffer", "access queue discs' limit (packets)", accessBuffer);
    cmd.AddValue("duration", "simulated time (s)", duration);
    cmd.AddValue("minTh", "RED MinTh", minTh);
    cmd.AddValue("maxTh", "RED MaxTh", maxTh);
    cmd.AddValue("maxP", "RED 1/LInterm", maxP);
    cmd.AddValue("qw", "RED QW", qw);
    cmd.AddValue("gentle", "RED Gentle", gentle);
    cmd.AddValue("meanPktSize", "RED MeanPktSize", meanPktSize);
    cmd.AddValue("segmentSize", "TcpSocket SegmentSize", segmentSize);
    cmd.AddValue("buffer", "TcpSocket SndBufSize and RcvBufSize", buffer);
    cmd.Parse(argc, argv);
    std::vector<FlowSpec> specs = ParseFlows(flowsText);
    NS_ABORT_MSG_IF(specs.empty(), "--flows: no flow");
    NS_ABORT_MSG_IF(cc != "newreno" && cc != "cubic", "--cc: newreno or cubic");
    NS_ABORT_MSG_IF(queue != "droptail" && queue != "red-ecn", "--queue: droptail or red-ecn");
    bool ecn = queue == "red-ecn";

    Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                       TypeIdValue(cc == "cubic" ? TcpCubic::GetTypeId() : TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
    if (ecn)
    {
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
    }

    NodeContainer routers(2);
    NodeContainer senders(specs.size());
    NodeContainer receivers(specs.size());
    InternetStackHelper stack;
    stack.InstallAll();

    TrafficControlHelper fifo;
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, accessBuffer)));
    TrafficControlHelper bottleneckQueue;
    if (ecn)
    {
        bottleneckQueue.SetRootQueueDisc("ns3::RedQueueDisc",
                                         "MinTh", DoubleValue(minTh),
                                         "MaxTh", DoubleValue(maxTh),
                                         "LInterm", DoubleValue(1.0 / maxP),
                                         "QW", DoubleValue(qw),
                                         "Gentle", BooleanValue(gentle),
                                         "UseEcn", BooleanValue(true),
                                         "MeanPktSize", UintegerValue(meanPktSize),
                                         "LinkBandwidth", DataRateValue(DataRate(static_cast<uint64_t>(rate))),
                                         "LinkDelay", TimeValue(Seconds(delay)),
                                         "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    }
    else
    {
        bottleneckQueue.SetRootQueueDisc("ns3::FifoQueueDisc",
                                         "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    }

    PointToPointHelper link;
    link.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");

    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(rate))));
    link.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    NetDeviceContainer core = link.Install(routers.Get(0), routers.Get(1));
    QueueDiscContainer coreQueues = bottleneckQueue.Install(core.Get(0));
    fifo.Install(core.Get(1));
    address.Assign(core);
    address.NewNetwork();

    std::vector<FlowCounters> counters(specs.size());
    std::vector<Ipv4Address> receiverAddresses;
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(accessRate))));
    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        link.SetChannelAttribute("Delay", TimeValue(Seconds(specs[i].accessDelay)));
        NetDeviceContainer left = link.Install(senders.Get(i), routers.Get(0));
        fifo.Install(left);
        address.Assign(left);
        address.NewNetwork();
        link.SetChannelAttribute("Delay", TimeValue(Seconds(receiverDelay)));
        NetDeviceContainer right = link.Install(routers.Get(1), receivers.Get(i));
        fifo.Install(right);
        Ipv4InterfaceContainer rightAddresses = address.Assign(right);
        address.NewNetwork();
        receiverAddresses.push_back(rightAddresses.GetAddress(1));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        uint16_t port = 5000 + i;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sink = sinkHelper.Install(receivers.Get(i));
        sink.Start(Seconds(0));
        sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnReceive, &counters[i], &specs[i]));
        Ptr<Sender> sender = CreateObject<Sender>();
        sender->Setup(InetSocketAddress(receiverAddresses[i], port), specs[i], &counters[i]);
        senders.Get(i)->AddApplication(sender);
        sender->SetStartTime(Seconds(specs[i].start));
        counters[i].sender = sender;
    }

    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    for (std::size_t i = 0; i < specs.size(); ++i)
    {
        const FlowCounters& c = counters[i];
        std::cout << "flow " << i << " " << c.received << " " << c.retransmissions << " " << c.timeouts << " "
                  << c.completed << " " << c.transferTime << "\n";
    }
    QueueDisc::Stats stats = coreQueues.Get(0)->GetStats();
    Ptr<PointToPointNetDevice> device = DynamicCast<PointToPointNetDevice>(core.Get(0));
    uint32_t deviceDrops = device->GetQueue()->GetTotalDroppedPackets();
    std::cout << "queue " << stats.nTotalDroppedPackets + deviceDrops << " " << stats.nTotalMarkedPackets << "\n";
    Simulator::Destroy();
    return 0;
}
