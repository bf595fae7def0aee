//! BIC (Xu, Harfoush & Rhee, INFOCOM 2004) as Linux `net/ipv4/tcp_bic.c` runs it.
//!
//! Linux keeps an integer `snd_cwnd` and counts ACKs up to `cnt` before adding a segment;
//! wattnet keeps a fractional cwnd. Every decision Linux takes on `snd_cwnd` (the growth
//! region, the binary-search distance, the loss hook) is taken here on the integer part of
//! cwnd with Linux's integer arithmetic, so region boundaries and `last_max_cwnd` match the
//! kernel; the increase itself is applied as `acked / cnt` per ACK, with `cnt` fractional.
//! Counting segments acked (not ACKs) is what Linux's delayed-ACK rescaling of `cnt`
//! (`ACK_RATIO_SHIFT`) approximates, so that rescaling is not repeated.

use serde::{Deserialize, Serialize};

use super::{slow_start, Ack, Congestion, CongestionControl, Subflows, Window};
use crate::time::Time;

/// Linux `BICTCP_BETA_SCALE`: `beta` is in 1/1024.
const BETA_SCALE: u64 = 1024;

/// BIC's constants; the defaults are Linux's module parameters.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct BicParams {
    /// Multiplicative decrease in 1/1024 (Linux `beta` = 819, cwnd × 0.8 on loss).
    pub beta: u32,
    /// Binary-search divisor: each RTT closes 1/B of the gap to `last_max_cwnd` (Linux `BICTCP_B` = 4).
    pub b: u32,
    /// Largest increase per RTT, in segments (Linux `max_increment` = 16).
    pub max_increment: u32,
    /// At or below this cwnd BIC grows and backs off like Reno (Linux `low_window` = 14).
    pub low_window: u32,
    /// Near `last_max_cwnd` cwnd grows by B/smooth_part per RTT (Linux `smooth_part` = 20).
    pub smooth_part: u32,
    /// Lower `last_max_cwnd` to (1 + β)/2 of cwnd when a loss comes below it (Linux `fast_convergence` = 1).
    pub fast_convergence: bool,
    /// Before the first loss, at most `cnt` ACKs per segment, i.e. at least cwnd/20 per RTT
    /// (the literal 20 in Linux `bictcp_update`).
    pub pre_loss_max_cnt: u32,
    /// Initial ssthresh in segments; 0 keeps the sender's (Linux `initial_ssthresh`: 0 in
    /// the paper, 100 in kernels up to about 2.6.18; the sender applies it, see
    /// [`CongestionControl::initial_ssthresh`]).
    pub initial_ssthresh: u32,
}

impl Default for BicParams {
    fn default() -> Self {
        BicParams {
            beta: 819,
            b: 4,
            max_increment: 16,
            low_window: 14,
            smooth_part: 20,
            fast_convergence: true,
            pre_loss_max_cnt: 20,
            initial_ssthresh: 0,
        }
    }
}

impl BicParams {
    pub fn validate(&self) -> Result<(), String> {
        if self.beta == 0 || self.beta as u64 >= BETA_SCALE {
            return Err(format!("beta must be in 1..=1023 (1/1024 units), got {}", self.beta));
        }
        if self.b < 2 {
            return Err(format!("b must be at least 2, got {}", self.b));
        }
        if self.max_increment == 0 || self.smooth_part == 0 || self.pre_loss_max_cnt == 0 {
            return Err("max_increment, smooth_part and pre_loss_max_cnt must be at least 1".into());
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Bic {
    params: BicParams,
    /// Linux `last_max_cwnd`: the window BIC searches towards; 0 before the first loss.
    last_max_cwnd: u32,
    /// Linux `loss_cwnd`: cwnd at the last loss; 0 before the first loss.
    loss_cwnd: u32,
}

impl Bic {
    pub fn new(params: BicParams) -> Bic {
        Bic { params, last_max_cwnd: 0, loss_cwnd: 0 }
    }

    /// ACKs (segments acked) per +1 segment in congestion avoidance; Linux `bictcp_update`.
    fn cnt(&self, cwnd: f64) -> f64 {
        let p = &self.params;
        let snd_cwnd = cwnd as u32; // Linux's integer window
        let last_max = self.last_max_cwnd;
        let smooth = p.b as f64 / p.smooth_part as f64;
        // Segments added per RTT; cnt = cwnd / that.
        let per_rtt = if snd_cwnd <= p.low_window {
            1.0 // tcp_bic.c: "start off normal", cnt = cwnd (Reno)
        } else if snd_cwnd < last_max {
            let dist = (last_max - snd_cwnd) / p.b; // u32 division as in tcp_bic.c
            if dist > p.max_increment {
                p.max_increment as f64 // linear increase, +max_increment per RTT
            } else if dist <= 1 {
                smooth // binary search close to last_max: +B/smooth_part per RTT
            } else {
                dist as f64 // binary search increase: +dist per RTT
            }
        } else if snd_cwnd < last_max + p.b {
            smooth // max probing starts slowly just above last_max
        } else if snd_cwnd < last_max + p.max_increment * (p.b - 1) {
            (snd_cwnd - last_max) as f64 / (p.b - 1) as f64 // "slow start" of max probing
        } else {
            p.max_increment as f64 // linear increase
        };
        let mut cnt = cwnd / per_rtt;
        if self.loss_cwnd == 0 {
            cnt = cnt.min(p.pre_loss_max_cnt as f64); // tcp_bic.c: no loss yet, ≥ 5 %/RTT
        }
        cnt.max(1.0) // tcp_bic.c: cnt cannot be zero
    }
}

impl CongestionControl for Bic {
    fn grow(&mut self, _g: Subflows, w: &mut Window, ack: &Ack) {
        let left = slow_start(w, ack.acked);
        if left > 0.0 {
            w.cwnd += left / self.cnt(w.cwnd);
        }
    }

    /// Linux `bictcp_recalc_ssthresh`; it reads cwnd, not FlightSize.
    fn ssthresh(&mut self, _g: Subflows, w: &Window, _flight: f64, why: Congestion, _now: Time) -> f64 {
        let p = &self.params;
        let snd_cwnd = w.cwnd as u32;
        // tcp_bic.c "Wmax and fast convergence": release bandwidth if the loss came early.
        self.last_max_cwnd = if snd_cwnd < self.last_max_cwnd && p.fast_convergence {
            (snd_cwnd as u64 * (BETA_SCALE + p.beta as u64) / (2 * BETA_SCALE)) as u32
        } else {
            snd_cwnd
        };
        self.loss_cwnd = snd_cwnd;
        let ssthresh = if snd_cwnd <= p.low_window {
            (snd_cwnd >> 1).max(2) // Reno's halving below low_window
        } else {
            ((snd_cwnd as u64 * p.beta as u64 / BETA_SCALE) as u32).max(2)
        };
        if why == Congestion::Timeout {
            // tcp_enter_loss calls ssthresh, then set_state(TCP_CA_Loss) → bictcp_reset.
            self.last_max_cwnd = 0;
            self.loss_cwnd = 0;
        }
        ssthresh as f64
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        (self.params.initial_ssthresh > 0).then_some(self.params.initial_ssthresh as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::Reno;

    fn ack(acked: f64) -> Ack {
        Ack { acked, ..Default::default() }
    }

    /// A BIC that has seen one loss at `cwnd` (first loss: last_max_cwnd = cwnd).
    fn after_loss_at(cwnd: f64) -> Bic {
        let mut bic = Bic::new(BicParams::default());
        bic.ssthresh(Subflows::ALONE, &Window { cwnd, ssthresh: 1e9 }, cwnd, Congestion::Loss, 0);
        bic
    }

    /// Feeds `n` ACKs of one segment each.
    fn feed(bic: &mut Bic, w: &mut Window, n: usize) {
        for _ in 0..n {
            bic.grow(Subflows::ALONE, w, &ack(1.0));
        }
    }

    #[test]
    fn binary_search_step_is_a_quarter_of_the_gap() {
        // By hand: last_max 100, cwnd 80 → dist = 20/4 = 5 → cnt = 80/5 = 16.
        let mut bic = after_loss_at(100.0);
        assert_eq!(bic.last_max_cwnd, 100);
        let mut w = Window { cwnd: 80.0, ssthresh: 79.0 };
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - (80.0 + 1.0 / 16.0)).abs() < 1e-12);
        // One RTT (80 ACKs). cnt = 16 held for the RTT would give +5; the step shrinks as cwnd
        // climbs. Worked by hand: at dist 5 each ACK adds 5/c, so c² grows by 10 per ACK:
        // 80² + 10·16 = 6560 → c = 80.994 after 16 ACKs, the 17th (+5/80.994) → 81.056.
        // From snd_cwnd 81 to 84 the gap is 19..16 → dist 4, +4/c per ACK, c² += 8:
        // 81.056² + 8·63 = 7074.1 → c = 84.107 after the 80th ACK.
        feed(&mut bic, &mut w, 79);
        assert!((w.cwnd - 84.107).abs() < 0.01, "cwnd {}", w.cwnd);
    }

    #[test]
    fn far_below_last_max_growth_is_capped_at_max_increment() {
        // By hand: last_max 1000, cwnd 500 → dist 125 > 16 → cnt = 500/16 = 31.25.
        let mut bic = after_loss_at(1000.0);
        let mut w = Window { cwnd: 500.0, ssthresh: 400.0 };
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - (500.0 + 1.0 / 31.25)).abs() < 1e-12);
        // One RTT of 500 ACKs at +16/c each: c² grows by 32 per ACK,
        // 500² + 32·500 = 266000 → c = 515.75 (+15.75 ≈ 16 per RTT).
        feed(&mut bic, &mut w, 499);
        assert!((w.cwnd - 515.75).abs() < 0.01, "cwnd {}", w.cwnd);
    }

    #[test]
    fn loss_below_last_max_converges_fast_with_linux_integer_math() {
        // By hand: loss at 100 with last_max 120 → ⌊100·1843/2048⌋ = ⌊89.99⌋ = 89,
        // ssthresh ⌊100·819/1024⌋ = ⌊79.98⌋ = 79.
        let mut bic = after_loss_at(120.0);
        assert_eq!(bic.last_max_cwnd, 120);
        // The fraction of cwnd is Linux's snd_cwnd_cnt, not part of snd_cwnd.
        let w = Window { cwnd: 100.7, ssthresh: 95.0 };
        assert_eq!(bic.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Loss, 0), 79.0);
        assert_eq!(bic.last_max_cwnd, 89);
        assert_eq!(bic.loss_cwnd, 100);

        let mut slow = Bic::new(BicParams { fast_convergence: false, ..Default::default() });
        slow.ssthresh(Subflows::ALONE, &Window { cwnd: 120.0, ssthresh: 1e9 }, 120.0, Congestion::Loss, 0);
        assert_eq!(slow.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Loss, 0), 79.0);
        assert_eq!(slow.last_max_cwnd, 100);
    }

    #[test]
    fn small_windows_halve_like_reno() {
        // cwnd ≤ low_window (14): ssthresh = max(cwnd >> 1, 2): 14 → 7, 3 → 2.
        let mut bic = Bic::new(BicParams::default());
        assert_eq!(
            bic.ssthresh(Subflows::ALONE, &Window { cwnd: 14.0, ssthresh: 1e9 }, 14.0, Congestion::Loss, 0),
            7.0
        );
        assert_eq!(bic.ssthresh(Subflows::ALONE, &Window { cwnd: 3.0, ssthresh: 1e9 }, 3.0, Congestion::Ecn, 0), 2.0);
        // Just above: ⌊15·819/1024⌋ = ⌊11.997⌋ = 11.
        assert_eq!(
            bic.ssthresh(Subflows::ALONE, &Window { cwnd: 15.0, ssthresh: 1e9 }, 15.0, Congestion::Loss, 0),
            11.0
        );
    }

    #[test]
    fn below_low_window_grows_exactly_like_reno() {
        let mut bic = after_loss_at(100.0);
        let mut w = Window { cwnd: 8.0, ssthresh: 10.0 };
        let mut reno_w = w;
        // Slow start 8 → 10, then +1/cwnd per segment up to snd_cwnd 14 (cwnd < 15).
        for _ in 0..100 {
            bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
            Reno.grow(Subflows::ALONE, &mut reno_w, &ack(1.0));
            if reno_w.cwnd >= 15.0 {
                break;
            }
            assert_eq!(w.cwnd, reno_w.cwnd);
        }
        assert!(reno_w.cwnd >= 15.0, "the loop must reach the end of the Reno region");
        // At snd_cwnd 15 BIC is in binary search (gap 85 → dist 21 > 16 → +16 per RTT):
        // cnt = 15.0x/16 < 1 is floored at 1 (Linux: 15/16 = 0 → 1), so +1 per ACK, where
        // Reno adds 1/15.
        let before = w.cwnd;
        assert!(before < 16.0);
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - before - 1.0).abs() < 1e-12, "added {}", w.cwnd - before);
    }

    #[test]
    fn binary_search_trace_approaches_last_max_then_probes() {
        // Loss at W_max = 100 (first loss) → last_max 100, ssthresh ⌊100·819/1024⌋ = 79;
        // recovery ends with cwnd = ssthresh = 79. Each round feeds one RTT of ACKs, one per
        // whole segment of the window at the round's start.
        let mut bic = Bic::new(BicParams::default());
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        w.ssthresh = bic.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Loss, 0);
        w.cwnd = w.ssthresh;
        assert_eq!(w.cwnd, 79.0);
        let mut trace = vec![w.cwnd];
        for _ in 0..40 {
            let n = w.cwnd as usize;
            feed(&mut bic, &mut w, n);
            trace.push(w.cwnd);
        }
        // Worked by hand: within a stretch of constant dist = ⌊(100 − ⌊c⌋)/4⌋ each ACK adds
        // dist/c, so c² grows by 2·dist per ACK.
        // Round 1 (79 ACKs): dist 5 up to 81 takes (81² − 79²)/10 = 32 ACKs; 47 more at dist 4:
        //   c² = 6561 + 8·47 = 6937 → 83.29.
        // Round 2 (83 ACKs): dist 4 to 85, (7225 − 6937)/8 = 36 ACKs; 47 at dist 3:
        //   c² = 7225 + 6·47 = 7507 → 86.64.
        // Round 3 (86 ACKs): dist 3 to 89, (7921 − 7507)/6 ≈ 69 ACKs; 17 at dist 2:
        //   c² ≈ 7921 + 4·17 = 7989 → 89.38.
        // Round 4 (89 ACKs): all at dist 2 (⌊c⌋ < 93): c² = 7989 + 4·89 = 8345 → 91.35.
        // Round 5 (91 ACKs): dist 2 to 93, (8649 − 8345)/4 ≈ 76 ACKs; the gap is now < 8, so
        //   dist ≤ 1 and the last 15 ACKs add 0.2/93 each: 93 + 0.03 = 93.03.
        // From then on +4/20 = 0.2 per RTT (cnt = 5·cwnd) until cwnd reaches 104 = last_max + B.
        let expected = [79.0, 83.29, 86.64, 89.38, 91.35, 93.03];
        for (round, (got, want)) in trace.iter().zip(expected).enumerate() {
            assert!((got - want).abs() < 0.02, "round {round}: cwnd {got}, expected ≈ {want}");
        }
        // Smooth part: each of the next rounds adds ⌊c⌋/(5c) ≈ 0.2 (0.198..0.2).
        for round in 5..30 {
            let step = trace[round + 1] - trace[round];
            assert!(trace[round + 1] < 104.0);
            assert!((0.195..=0.2).contains(&step), "round {round}: step {step}");
        }
        // The plateau lasts (104 − 93)/0.2 ≈ 55 RTTs: round 40 is at 93.03 + 35 steps of
        // 0.198..0.2 = 99.96..100.03.
        assert!((99.9..100.1).contains(&trace[40]), "cwnd {}", trace[40]);
    }

    #[test]
    fn max_probing_accelerates_past_last_max() {
        // last_max 100. At cwnd 110: 104 ≤ 110 < 100 + 16·3 = 148 → +(110 − 100)/3 per RTT,
        // cnt = 3·110/10 = 33. At 150 ≥ 148: +16 per RTT, cnt = 150/16 = 9.375.
        let mut bic = after_loss_at(100.0);
        let mut w = Window { cwnd: 110.0, ssthresh: 80.0 };
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - (110.0 + 1.0 / 33.0)).abs() < 1e-12);
        let mut w = Window { cwnd: 150.0, ssthresh: 80.0 };
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - (150.0 + 1.0 / 9.375)).abs() < 1e-12);
    }

    #[test]
    fn before_any_loss_cnt_is_capped_at_20() {
        // No loss: last_max 0, cwnd 400 ≥ 48 → cnt = 400/16 = 25, capped to 20: +1/20 per ACK.
        let mut fresh = Bic::new(BicParams::default());
        let mut w = Window { cwnd: 400.0, ssthresh: 300.0 };
        fresh.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - 400.05).abs() < 1e-12);
        // After a loss at 200 the cap is off: 400 ≥ 200 + 48 → cnt 25 → +0.04.
        let mut lost = after_loss_at(200.0);
        let mut w = Window { cwnd: 400.0, ssthresh: 300.0 };
        lost.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - 400.04).abs() < 1e-12);
    }

    #[test]
    fn timeout_resets_the_search_like_linux() {
        // Loss at 100, then an RTO at 90: ssthresh ⌊90·819/1024⌋ = ⌊71.98⌋ = 71, and the state
        // is reset (bictcp_reset): last_max 0, so cwnd 90 ≥ 48 → cnt = 90/16 = 5.625.
        // Without the reset last_max would be ⌊90·1843/2048⌋ = 80 → cnt = 3·90/10 = 27.
        let mut bic = after_loss_at(100.0);
        let w = Window { cwnd: 90.0, ssthresh: 79.0 };
        assert_eq!(bic.ssthresh(Subflows::ALONE, &w, 90.0, Congestion::Timeout, 0), 71.0);
        assert_eq!((bic.last_max_cwnd, bic.loss_cwnd), (0, 0));
        let mut w = Window { cwnd: 90.0, ssthresh: 71.0 };
        bic.grow(Subflows::ALONE, &mut w, &ack(1.0));
        assert!((w.cwnd - (90.0 + 1.0 / 5.625)).abs() < 1e-12);
    }

    #[test]
    fn slow_start_below_ssthresh() {
        let mut bic = Bic::new(BicParams::default());
        let mut w = Window { cwnd: 2.0, ssthresh: 100.0 };
        feed(&mut bic, &mut w, 3);
        assert_eq!(w.cwnd, 5.0);
    }

    #[test]
    fn initial_ssthresh_zero_keeps_the_senders() {
        assert_eq!(Bic::new(BicParams::default()).initial_ssthresh(), None);
        let old_kernel = BicParams { initial_ssthresh: 100, ..Default::default() };
        assert_eq!(Bic::new(old_kernel).initial_ssthresh(), Some(100.0));
    }
}
