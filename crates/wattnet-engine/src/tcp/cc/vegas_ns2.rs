//! Vegas as ns-2.35's `Agent/TCP/Vegas` runs it (`tcp/tcp-vegas.cc`, Ted Kuo's port of the
//! USC NetBSD Vegas; Brakmo & Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global
//! Internet", IEEE JSAC 13(8), 1995), the `ns2` variant of [`VegasParams`]. What it does that
//! Linux's Vegas ([`super::Vegas`]) does not:
//!
//! - one decision per round from the *mean* of the round's RTT samples, with the queue estimate
//!   δ = (expected − actual)·baseRTT rounded to an integer, expected = (outstanding + 1) / baseRTT
//!   (ns-2 counts from the highest segment acknowledged, one below snd_una) and actual = segments
//!   sent in the round / RTT;
//! - in slow start it grows only on every other round, and leaves it (ssthresh 2) with a cut of
//!   cwnd/8 as soon as δ > γ, before any loss;
//! - every ACK adds the round's increment only while cwnd exceeds outstanding + 1 by at most 2;
//! - the third duplicate ACK cuts the window by a quarter (to 2 at or below 3 segments), not half,
//!   and recovery ends with ssthresh 2 (congestion avoidance from then on);
//! - after a retransmission timeout cwnd restarts from 2 segments (`v_slowstart_`).
//!
//! Not modelled: the fine-grained retransmission of Vegas (`vegas_expire`, `v_worried_`: a segment
//! older than the fine-grained timeout is resent on the first duplicate ACK or on one of the two
//! ACKs after recovery), the halving instead of the ¾ cut when the lost segment had been resent
//! before, and the test that cwnd has not changed since the lost segment was sent (one cut per window).

use super::{half_flight, Ack, Congestion, CongestionControl, Subflows, VegasParams, Window};
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct Ns2Vegas {
    params: VegasParams,
    /// `v_baseRTT_`: the smallest RTT seen (a sample or a round's mean).
    base_rtt: Option<Time>,
    /// `v_sumRTT_`, `v_cntRTT_`: the samples of the current round.
    sum_rtt: Time,
    cnt_rtt: u32,
    /// The sample of the latest ACK, counted once that ACK's round decision is made (ns-2 times
    /// the acknowledged segment after the once-per-round section).
    pending_rtt: Option<Time>,
    /// `v_begseq_`, `v_begtime_`: snd_nxt (segments) and the time when the round began.
    beg_seq: f64,
    beg_time: Time,
    /// `v_inc_flag_`: slow start grows only on rounds where this is set; it flips every round.
    inc_flag: bool,
    /// `v_incr_`: segments added per ACK until the next round's decision.
    incr: f64,
    /// Why the window last shrank: recovery after a fast retransmit ends with ssthresh 2.
    last_signal: Option<Congestion>,
    /// Set when fast recovery ends; the next ACK's growth sets ssthresh to 2.
    recovered: bool,
}

impl Ns2Vegas {
    /// `VegasTcpAgent::reset()`: baseRTT unknown, `v_inc_flag_` 1, no increment.
    pub fn new(params: VegasParams) -> Ns2Vegas {
        Ns2Vegas {
            params,
            base_rtt: None,
            sum_rtt: 0,
            cnt_rtt: 0,
            pending_rtt: None,
            beg_seq: 0.0,
            beg_time: 0,
            inc_flag: true,
            incr: 0.0,
            last_signal: None,
            recovered: false,
        }
    }

    /// Counts the latest ACK's sample in the round and in baseRTT (`tcp-vegas.cc` `recv()`, the
    /// fine-grained RTT update after the window decisions).
    fn count_pending_sample(&mut self) {
        if let Some(rtt) = self.pending_rtt.take() {
            self.sum_rtt += rtt;
            self.cnt_rtt += 1;
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        }
    }

    /// The once-per-round section of `recv()`: the round's RTT, δ, and the window decision.
    fn end_of_round(&mut self, w: &mut Window, ack: &Ack, outstanding: f64) {
        // The mean of the round's samples, or the round's duration if it had none.
        let rtt = match self.cnt_rtt {
            0 => ack.now.saturating_sub(self.beg_time),
            n => self.sum_rtt / n as Time,
        };
        self.sum_rtt = 0;
        self.cnt_rtt = 0;
        // Segments sent in the round (`rttLen = t_seqno_ − v_begseq_`).
        let sent_in_round = ack.snd_nxt - self.beg_seq;
        if rtt > 0 {
            // With one segment in transit the round's RTT is the path's own.
            let base = match self.base_rtt {
                Some(b) if rtt >= b && sent_in_round > 1.0 => b,
                _ => rtt,
            };
            self.base_rtt = Some(base);
            let (rtt_s, base_s) = (crate::time::to_secs(rtt), crate::time::to_secs(base));
            let expected = outstanding / base_s;
            let actual = sent_in_round / rtt_s;
            // `int((expect − actual)·baseRTT + 0.5)`: rounded, C's conversion truncating toward zero.
            let delta = ((expected - actual) * base_s + 0.5).trunc();
            let p = &self.params;
            if w.in_slow_start() {
                // Slow start adjusts cwnd every other round.
                self.inc_flag = !self.inc_flag;
                self.incr = 0.0;
                if self.inc_flag {
                    if delta > p.gamma {
                        // Leave slow start, a little below the window that queued too much.
                        w.ssthresh = 2.0;
                        w.cwnd = (w.cwnd - w.cwnd / 8.0).max(2.0);
                    } else {
                        self.incr = 1.0;
                    }
                }
            } else if delta > p.beta {
                w.cwnd = (w.cwnd - 1.0).max(2.0);
                self.incr = 0.0;
            } else if delta < p.alpha {
                self.incr = 1.0 / w.cwnd;
            } else {
                self.incr = 0.0;
            }
        }
        self.beg_seq = ack.snd_nxt;
        self.beg_time = ack.now;
    }
}

impl CongestionControl for Ns2Vegas {
    fn on_ack(&mut self, _g: Subflows, _w: &Window, ack: &Ack) {
        self.count_pending_sample();
        self.pending_rtt = ack.rtt.map(|r| r.max(1));
    }

    fn grow(&mut self, _g: Subflows, w: &mut Window, ack: &Ack) {
        if self.recovered {
            // "vegas ssthresh is used only during slow-start": after the deflation, avoidance.
            w.ssthresh = 2.0;
            self.recovered = false;
        }
        // `t_seqno_ − last_ack_`: ns-2's `last_ack_` is the highest segment acknowledged, one below snd_una.
        let outstanding = ack.snd_nxt - ack.snd_una + 1.0;
        // ns-2: the ACK's sequence number reaches `v_begseq_`, i.e. snd_una passes it.
        if ack.snd_una > self.beg_seq {
            self.end_of_round(w, ack, outstanding);
        }
        // The round's increment of 1 stops at ssthresh within the round.
        if self.incr == 1.0 && w.cwnd >= w.ssthresh {
            self.incr = 0.0;
        }
        // Grow only while the sender keeps up with the window.
        if self.incr > 0.0 && w.cwnd - outstanding <= 2.0 {
            w.cwnd += self.incr;
        }
        self.count_pending_sample();
    }

    /// `recv()` on the third duplicate ACK: win −= win/4 (2 at or below 3 segments), in whole
    /// segments of `window()`; the sender adds the duplicate ACKs (cwnd = win + 3, then +1 each) and
    /// deflates to win. A timeout halves (`slowdown(CLOSE_SSTHRESH_HALF)`), as does ECN-Echo (`ecn()`).
    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, why: Congestion, _now: Time) -> f64 {
        self.last_signal = Some(why);
        self.incr = 0.0;
        match why {
            Congestion::Loss => {
                let win = flight.floor();
                if win <= 3.0 {
                    2.0
                } else {
                    win - (win / 4.0).floor()
                }
            }
            Congestion::Timeout | Congestion::Ecn => half_flight(flight),
        }
    }

    fn on_recovery_end(&mut self, _g: Subflows, _w: &Window, _now: Time) {
        self.recovered = self.last_signal == Some(Congestion::Loss);
    }

    /// `timeout()`: `slowdown(CLOSE_CWND_RESTART)` sets cwnd to 1, then `cwnd_ = v_slowstart_` (2).
    fn loss_window(&self) -> f64 {
        2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_secs;

    fn ms(v: f64) -> Time {
        from_secs(v / 1000.0)
    }

    /// One ACK of one segment: the sender's order, `on_ack` then `grow`.
    fn feed(v: &mut Ns2Vegas, w: &mut Window, now_ms: f64, snd_una: f64, snd_nxt: f64, rtt_ms: f64) {
        let a = Ack { now: ms(now_ms), acked: 1.0, rtt: Some(ms(rtt_ms)), snd_una, snd_nxt, ..Default::default() };
        v.on_ack(Subflows::ALONE, w, &a);
        v.grow(Subflows::ALONE, w, &a);
    }

    /// Slow start from cwnd 2 on a path of RTT 40 ms that queues nothing, by hand. Each ACK acknowledges
    /// one segment; ns-2's outstanding count is snd_nxt − snd_una + 1. Round 1 ends with the first ACK
    /// (snd_una 1 > beg_seq 0): no samples yet, so the round's RTT is its duration, 40 ms; the flag flips
    /// off: no growth. Round 2 ends at snd_una 3 > beg_seq 2: δ = round(outstanding − sent·base/rtt):
    /// flag on, +1 per ACK while cwnd − outstanding ≤ 2.
    #[test]
    fn slow_start_grows_every_other_round() {
        let mut v = Ns2Vegas::new(VegasParams::default());
        let mut w = Window { cwnd: 2.0, ssthresh: 1000.0 };
        // Round 1 ends at 40 ms: snd_una 1, snd_nxt 2 (2 sent, 1 outstanding).
        feed(&mut v, &mut w, 40.0, 1.0, 2.0, 40.0);
        assert_eq!((w.cwnd, v.incr, v.inc_flag, v.beg_seq), (2.0, 0.0, false, 2.0));
        // snd_una 2: not past beg_seq 2; no increment this round.
        feed(&mut v, &mut w, 40.8, 2.0, 3.0, 40.0);
        assert_eq!(w.cwnd, 2.0);
        // snd_una 3 > 2 ends round 2: two samples of 40 ms, mean 40; sent in round = 4 − 2 = 2,
        // outstanding 4 − 3 + 1 = 2: δ = trunc(2 − 2·40/40 + 0.5) = 0 ≤ γ → +1 (2 − 2 ≤ 2): cwnd 3.
        feed(&mut v, &mut w, 80.0, 3.0, 4.0, 40.0);
        assert_eq!((w.cwnd, v.incr, v.inc_flag), (3.0, 1.0, true));
        // The round's further ACKs add 1 each while cwnd − outstanding ≤ 2 (3 − 3 here).
        feed(&mut v, &mut w, 80.8, 4.0, 6.0, 40.0);
        assert_eq!(w.cwnd, 4.0);
        // Round 3 ends (snd_una 5 > beg_seq 4): the flag flips off, cwnd holds for the round.
        feed(&mut v, &mut w, 120.0, 5.0, 8.0, 40.0);
        assert_eq!((w.cwnd, v.incr, v.inc_flag), (4.0, 0.0, false));
    }

    /// Leaving slow start before any loss: baseRTT 40 ms, a round whose samples average 48 ms, then
    /// δ > γ 1 → ssthresh 2, cwnd 24 − 24/8 = 21.
    #[test]
    fn slow_start_ends_with_a_cut_of_one_eighth_when_the_queue_estimate_exceeds_gamma() {
        let mut v = Ns2Vegas::new(VegasParams::default());
        v.base_rtt = Some(ms(40.0));
        v.inc_flag = false; // the next round is an increment round
        v.beg_seq = 100.0;
        v.sum_rtt = ms(44.0) + ms(52.0);
        v.cnt_rtt = 2;
        let mut w = Window { cwnd: 24.0, ssthresh: 1000.0 };
        let before = Window { ..w };
        feed(&mut v, &mut w, 1000.0, 101.0, 120.0 + 5.0, 48.0);
        // Sent in the round: 125 − 100 = 25, outstanding 125 − 101 + 1 = 25: δ = trunc(25 − 25·40/48 +
        // 0.5) = trunc(4.67) = 4 > 1.
        assert_eq!((w.cwnd, w.ssthresh), (21.0, 2.0), "from {before:?}");
        assert_eq!(v.incr, 0.0);
    }

    /// Congestion avoidance: δ < α adds 1/cwnd per ACK (while cwnd − outstanding ≤ 2), δ > β takes
    /// one segment off once, α ≤ δ ≤ β holds. The round's samples are its mean (one here).
    #[test]
    fn avoidance_follows_the_rounded_queue_estimate() {
        // base 40 ms, 20 segments sent in the round (snd_nxt 120 − beg_seq 100), 20 outstanding
        // (120 − 101 + 1). Mean 40 ms: δ = trunc(20 − 20·40/40 + 0.5) = 0 < α → +1/20 (cwnd −
        // outstanding = 0 ≤ 2). Mean 52: trunc(20 − 15.38 + 0.5) = 5 > β 3 → 19. Mean 45:
        // trunc(20 − 17.78 + 0.5) = 2, within [α, β]: hold.
        for (mean, cwnd_after, incr) in [(40.0, 20.0 + 1.0 / 20.0, 1.0 / 20.0), (52.0, 19.0, 0.0), (45.0, 20.0, 0.0)] {
            let mut v = Ns2Vegas::new(VegasParams::default());
            v.base_rtt = Some(ms(40.0));
            v.beg_seq = 100.0;
            v.sum_rtt = ms(mean);
            v.cnt_rtt = 1;
            let mut w = Window { cwnd: 20.0, ssthresh: 2.0 };
            feed(&mut v, &mut w, 1000.0, 101.0, 120.0, mean);
            assert!((w.cwnd - cwnd_after).abs() < 1e-12 && (v.incr - incr).abs() < 1e-12, "mean {mean}: {w:?}");
        }
    }

    /// The third duplicate ACK: window 20 → 20 − 5 = 15; 3 → 2; a timeout halves (20 → 10) and the
    /// sender restarts from 2 segments. Fast recovery's end sets ssthresh 2 on the next ACK.
    #[test]
    fn duplicate_acks_cut_a_quarter_and_a_timeout_restarts_from_two() {
        let mut v = Ns2Vegas::new(VegasParams::default());
        let w = Window { cwnd: 20.0, ssthresh: 2.0 };
        assert_eq!(v.ssthresh(Subflows::ALONE, &w, 20.0, Congestion::Loss, 0), 15.0);
        assert_eq!(v.ssthresh(Subflows::ALONE, &w, 21.7, Congestion::Loss, 0), 16.0);
        assert_eq!(v.ssthresh(Subflows::ALONE, &w, 3.0, Congestion::Loss, 0), 2.0);
        let mut w = Window { cwnd: 15.0, ssthresh: 15.0 };
        v.on_recovery_end(Subflows::ALONE, &w, 0);
        feed(&mut v, &mut w, 0.0, 1.0, 2.0, 40.0);
        assert_eq!(w.ssthresh, 2.0);
        assert_eq!(v.ssthresh(Subflows::ALONE, &w, 20.0, Congestion::Timeout, 0), 10.0);
        v.on_recovery_end(Subflows::ALONE, &w, 0);
        assert!(!v.recovered, "a timeout is followed by slow start, not avoidance");
        assert_eq!(v.loss_window(), 2.0);
    }
}
