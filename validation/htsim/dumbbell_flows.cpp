// htsim's cost per link transmission against the number of TCP flows on wattnet's
// `dumbbell10g_*` benchmark dumbbell (docs/forwarding.md, *Many flows*). Built and run by
// run.sh against htsim (github.com/Broadcom/csg-htsim, sim/ at commit d6bfbe6).
//
// n TCP flows, flow i: s_i -> r1 -> r2 -> d_i, its ACKs d_i -> r2 -> r1 -> s_i over real
// queues and pipes (not htsim's shortcut return route). Every link 10 Gb/s; access links
// 1 ms with 1000-packet queues, the bottleneck r1 <-> r2 8 ms with 16 667-packet DropTail
// queues (one BDP). Flow i starts at i * (1 s / n). No loggers.
//
// usage: dumbbell_flows N END_SECONDS [big|htsim]
//   big (default): initial ssthresh 0xffffffff bytes, slow start until the first loss
//                  (NewReno as wattnet's ns2 profile runs it)
//   htsim:         htsim's own TcpSrc default (100 MSS)
// Prints one RESULT line on stderr; htsim's own RTO messages go to stdout.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <sys/resource.h>
#include <sys/time.h>
#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "queue.h"
#include "pipe.h"
#include "tcp.h"

// Link-transmission counter: every packet that Queue::completeService()
// dequeues and hands to the link's Pipe. Implemented as a thin subclass so
// the htsim sources stay unmodified (completeService is virtual & protected).
static uint64_t g_tx_data = 0, g_tx_ack = 0;

class CountingQueue : public Queue {
public:
    CountingQueue(linkspeed_bps bitrate, mem_b maxsize, EventList& ev)
        : Queue(bitrate, maxsize, ev, NULL), tx_bytes(0) {}
    uint64_t tx_bytes;
protected:
    virtual void completeService() {
        if (_enqueued.back()->type() == TCPACK) g_tx_ack++; else g_tx_data++;
        tx_bytes += _enqueued.back()->size();
        Queue::completeService();
    }
};

static double cpu_user() {
    struct rusage ru; getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
}
static double wall() {
    struct timeval tv; gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s N END_SECONDS [big|htsim]\n", argv[0]); return 1; }
    int n = atoi(argv[1]);
    double endtime = atof(argv[2]);
    bool big_ssthresh = !(argc > 3 && strcmp(argv[3], "htsim") == 0);

    double t0c = cpu_user();

    EventList eventlist;
    eventlist.setEndtime(timeFromSec(endtime));

    const linkspeed_bps rate = speedFromMbps((uint64_t)10000);   // 10 Gb/s
    const mem_b access_q = memFromPkt(1000);
    const mem_b bneck_q = memFromPkt(16667);                      // 1 BDP
    const simtime_picosec access_delay = timeFromMs(1);
    const simtime_picosec bneck_delay = timeFromMs(8);

    // shared bottleneck, both directions
    std::vector<Queue*> allq;
    CountingQueue* q_r1r2 = new CountingQueue(rate, bneck_q, eventlist); allq.push_back(q_r1r2);
    Pipe* p_r1r2 = new Pipe(bneck_delay, eventlist);
    CountingQueue* q_r2r1 = new CountingQueue(rate, bneck_q, eventlist); allq.push_back(q_r2r1);
    Pipe* p_r2r1 = new Pipe(bneck_delay, eventlist);

    // htsim main files use a 10 ms retransmission-timer scanner
    TcpRtxTimerScanner tcpRtxScanner(timeFromMs(10), eventlist);

    std::vector<TcpSrc*> srcs; std::vector<TcpSink*> sinks;
    for (int i = 0; i < n; i++) {
        // per-flow access links
        CountingQueue* q_s_r1 = new CountingQueue(rate, access_q, eventlist); // s_i -> r1
        Pipe* p_s_r1 = new Pipe(access_delay, eventlist);
        CountingQueue* q_r2_d = new CountingQueue(rate, access_q, eventlist); // r2 -> d_i
        Pipe* p_r2_d = new Pipe(access_delay, eventlist);
        CountingQueue* q_d_r2 = new CountingQueue(rate, access_q, eventlist); // d_i -> r2
        Pipe* p_d_r2 = new Pipe(access_delay, eventlist);
        CountingQueue* q_r1_s = new CountingQueue(rate, access_q, eventlist); // r1 -> s_i
        Pipe* p_r1_s = new Pipe(access_delay, eventlist);
        allq.push_back(q_s_r1); allq.push_back(q_r2_d); allq.push_back(q_d_r2); allq.push_back(q_r1_s);

        TcpSrc* src = new TcpSrc(NULL, NULL, eventlist);
        TcpSink* sink = new TcpSink();
        if (big_ssthresh) src->set_ssthresh(0xffffffff);
        tcpRtxScanner.registerTcp(*src);

        route_t* out = new route_t();
        out->push_back(q_s_r1); out->push_back(p_s_r1);
        out->push_back(q_r1r2); out->push_back(p_r1r2);
        out->push_back(q_r2_d); out->push_back(p_r2_d);
        out->push_back(sink);

        route_t* back = new route_t();
        back->push_back(q_d_r2); back->push_back(p_d_r2);
        back->push_back(q_r2r1); back->push_back(p_r2r1);
        back->push_back(q_r1_s); back->push_back(p_r1_s);
        back->push_back(src);

        simtime_picosec start = (simtime_picosec)((double)i * (timeFromSec(1.0) / (double)n));
        src->connect(*out, *back, *sink, start);
        srcs.push_back(src); sinks.push_back(sink);
    }

    double t1c = cpu_user(), t1w = wall();
    uint64_t events = 0;
    while (eventlist.doNextEvent()) { events++; }
    double t2c = cpu_user(), t2w = wall();

    uint64_t drops = 0;
    for (size_t i = 0; i < allq.size(); i++) drops += allq[i]->num_drops();
    uint64_t acked = 0, rtx_drops = 0;
    for (int i = 0; i < n; i++) { acked += sinks[i]->_cumulative_ack; rtx_drops += srcs[i]->_drops; }

    fprintf(stderr,
            "RESULT n=%d sim_s=%.3f ssthresh=%s setup_cpu=%.3f run_cpu=%.3f total_cpu=%.3f run_wall=%.3f "
            "link_tx=%llu data_tx=%llu ack_tx=%llu events=%llu queue_drops=%llu fast_rtx=%llu "
            "bneck_util=%.4f goodput_Gbps=%.4f ns_per_tx_run=%.2f\n",
            n, endtime, big_ssthresh ? "big" : "htsim", t1c - t0c, t2c - t1c, t2c - t0c, t2w - t1w,
            (unsigned long long)(g_tx_data + g_tx_ack), (unsigned long long)g_tx_data,
            (unsigned long long)g_tx_ack, (unsigned long long)events,
            (unsigned long long)drops, (unsigned long long)rtx_drops,
            q_r1r2->tx_bytes * 8.0 / endtime / 1e10, acked * 8.0 / endtime / 1e9,
            (t2c - t1c) * 1e9 / (double)(g_tx_data + g_tx_ack));
    return 0;
}
