//! OLIA, the Opportunistic Linked-Increases Algorithm (Khalili, Gast, Popovic, Le Boudec,
//! "MPTCP is not Pareto-optimal: performance issues and a possible solution", CoNEXT 2012),
//! in the structure of Linux's `mptcp_olia.c`: per ACK on subflow r,
//! w_r += (w_r/rtt_r²)/(Σ_k w_k/rtt_k)² + α_r/w_r, and Reno's halving on loss.

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{counted_window, coupled_growth, secs};
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct OliaParams {
    /// Count a subflow in fast recovery by its ssthresh, not its inflated cwnd, in the sums
    /// and in the set M (Linux `mptcp_get_crt_cwnd`). Default true.
    pub ssthresh_in_recovery: bool,
}

impl Default for OliaParams {
    fn default() -> Self {
        OliaParams { ssthresh_in_recovery: true }
    }
}

impl OliaParams {
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Linux's three snd_una marks of one subflow, in segments.
#[derive(Clone, Copy, Debug, Default)]
struct LossMarks {
    /// snd_una at the loss before the last one, at the last loss, and now.
    loss1: f64,
    loss2: f64,
    loss3: f64,
}

impl LossMarks {
    /// Khalili et al. §4: ℓ_r = max(ℓ₁, ℓ₂), the data acknowledged since the last loss or
    /// between the last two, whichever is larger.
    fn interval(&self) -> f64 {
        (self.loss3 - self.loss2).max(self.loss2 - self.loss1)
    }
}

#[derive(Clone, Debug)]
pub struct Olia {
    params: OliaParams,
    marks: Vec<LossMarks>,
}

impl Olia {
    pub fn new(params: OliaParams, subflows: usize) -> Olia {
        Olia { params, marks: vec![LossMarks::default(); subflows.max(1)] }
    }

    /// Khalili et al. §4 (Linux `mptcp_get_epsilon`): α_r = +1/(n·|B\M|) on a best path that
    /// does not have the largest window, −1/(n·|M|) on a largest window when B\M ≠ ∅, else 0.
    /// B maximises ℓ_k/rtt_k², M the window; only subflows with an RTT estimate count.
    fn alpha(&self, g: Subflows, w: &Window) -> f64 {
        let sr = self.params.ssthresh_in_recovery;
        let counted = || {
            g.all.iter().enumerate().filter_map(move |(k, v)| {
                let window = if k == g.index { w.cwnd } else { counted_window(v, sr) };
                let rtt = secs(v.srtt)?;
                Some((k, window, self.marks[k].interval(), rtt * rtt))
            })
        };
        let (mut n, mut max_window, mut best_int, mut best_rtt2) = (0usize, 0.0f64, 0.0f64, 1.0f64);
        for (_, window, int, rtt2) in counted() {
            n += 1;
            max_window = max_window.max(window);
            // ℓ/rtt² ≥ the best so far, compared cross-multiplied as Linux does.
            if int * best_rtt2 >= best_int * rtt2 {
                (best_int, best_rtt2) = (int, rtt2);
            }
        }
        let is_best = |int: f64, rtt2: f64| int * best_rtt2 == best_int * rtt2;
        let (mut in_m, mut in_b_not_m) = (0usize, 0usize);
        let mut me = (false, false);
        for (k, window, int, rtt2) in counted() {
            let (m, b) = (window == max_window, window != max_window && is_best(int, rtt2));
            in_m += m as usize;
            in_b_not_m += b as usize;
            if k == g.index {
                me = (m, b);
            }
        }
        match me {
            _ if in_b_not_m == 0 => 0.0,
            (_, true) => 1.0 / (n * in_b_not_m) as f64,
            (true, _) => -1.0 / (n * in_m) as f64,
            _ => 0.0,
        }
    }
}

impl CongestionControl for Olia {
    /// Linux refreshes loss3 with snd_una on every ACK it grows on; here on every ACK.
    fn on_ack(&mut self, g: Subflows, _w: &Window, ack: &Ack) {
        self.marks[g.index].loss3 = ack.snd_una;
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, self.params.ssthresh_in_recovery, |c, w| {
            c.kelly_voice_term() + self.alpha(g, w) / c.w
        });
    }

    /// Linux `mptcp_olia_set_state`: entering recovery, loss or CWR shifts the marks (unless
    /// nothing was acknowledged since the last shift); the window halves as in Reno.
    fn ssthresh(&mut self, g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        let m = &mut self.marks[g.index];
        if m.loss3 != m.loss2 {
            m.loss1 = m.loss2;
            m.loss2 = m.loss3;
        }
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, views};
    use super::*;

    fn ack_at(olia: &mut Olia, all: &[super::super::super::SubflowView], index: usize, snd_una: f64) -> f64 {
        let mut w = Window { cwnd: all[index].cwnd, ssthresh: 1.0 };
        let a = Ack { acked: 1.0, snd_una, ..Default::default() };
        let g = Subflows { index, all };
        olia.on_ack(g, &w, &a);
        olia.grow(g, &mut w, &a);
        w.cwnd - all[index].cwnd
    }

    #[test]
    fn windows_ten_and_twenty_with_the_small_one_best_split_alpha_and_shrink_the_large_one() {
        // Equal RTTs, w = (10, 20). Subflow 0 acknowledged 100 segments before its last loss,
        // subflow 1 only 50, so B = {0}, M = {1}, B\M = {0}: α₀ = +1/2, α₁ = −1/2.
        let all = views(&[10.0, 20.0], &[0.1, 0.1]);
        let mut olia = Olia::new(OliaParams::default(), 2);
        let g = |index| Subflows { index, all: &all };
        let w = Window { cwnd: 10.0, ssthresh: 1.0 };
        olia.on_ack(g(0), &w, &Ack { snd_una: 100.0, ..Default::default() });
        olia.ssthresh(g(0), &w, 10.0, Congestion::Loss, 0);
        olia.on_ack(g(1), &w, &Ack { snd_una: 50.0, ..Default::default() });
        olia.ssthresh(g(1), &w, 20.0, Congestion::Loss, 0);
        assert_eq!(olia.alpha(g(0), &Window { cwnd: 10.0, ssthresh: 1.0 }), 0.5);
        assert_eq!(olia.alpha(g(1), &Window { cwnd: 20.0, ssthresh: 1.0 }), -0.5);
        // Subflow 0: 10/30² + 0.5/10 = 0.0111 + 0.05 = 0.0611.
        let inc0 = ack_at(&mut olia, &all, 0, 100.0);
        assert!(close(inc0, 10.0 / 900.0 + 0.05, 1e-12));
        assert!(close(inc0, 0.0611, 5e-5));
        // Subflow 1: 20/900 − 0.5/20 = 0.0222 − 0.025 = −0.0028, a slow decrease.
        let inc1 = ack_at(&mut olia, &all, 1, 50.0);
        assert!(close(inc1, 20.0 / 900.0 - 0.025, 1e-12));
        assert!(close(inc1, -0.0028, 5e-5));
    }

    #[test]
    fn with_the_best_path_also_the_largest_window_alpha_is_zero() {
        let all = views(&[10.0, 20.0], &[0.1, 0.1]);
        let mut olia = Olia::new(OliaParams::default(), 2);
        let g = |index| Subflows { index, all: &all };
        let w = Window { cwnd: 20.0, ssthresh: 1.0 };
        olia.on_ack(g(1), &w, &Ack { snd_una: 100.0, ..Default::default() });
        olia.ssthresh(g(1), &w, 20.0, Congestion::Loss, 0);
        olia.on_ack(g(0), &w, &Ack { snd_una: 50.0, ..Default::default() });
        olia.ssthresh(g(0), &w, 10.0, Congestion::Loss, 0);
        // B = {1} = M: B\M is empty.
        assert!(close(ack_at(&mut olia, &all, 0, 50.0), 10.0 / 900.0, 1e-12));
        assert!(close(ack_at(&mut olia, &all, 1, 100.0), 20.0 / 900.0, 1e-12));
    }

    #[test]
    fn the_marks_shift_only_when_data_was_acknowledged_since_the_last_loss() {
        let mut olia = Olia::new(OliaParams::default(), 1);
        let all = views(&[10.0], &[0.1]);
        let g = Subflows { index: 0, all: &all };
        let w = Window { cwnd: 10.0, ssthresh: 1.0 };
        olia.on_ack(g, &w, &Ack { snd_una: 30.0, ..Default::default() });
        olia.ssthresh(g, &w, 10.0, Congestion::Loss, 0);
        olia.ssthresh(g, &w, 10.0, Congestion::Timeout, 0); // nothing acked in between
        assert_eq!(olia.marks[0].interval(), 30.0, "ℓ₂ = 30 survives the second signal");
        olia.on_ack(g, &w, &Ack { snd_una: 70.0, ..Default::default() });
        assert_eq!(olia.marks[0].interval(), 40.0, "ℓ₁ = 40 since the last loss");
    }
}
