//! DCTCP sender (RFC 8257 §3.3–3.5; Alizadeh et al., SIGCOMM 2010; Linux
//! `net/ipv4/tcp_dctcp.c`). Growth is Reno's; an ECE reaction scales the
//! window by α/2, where α is a moving average of the fraction of bytes marked per window.
//! α is kept in floating point (Linux: 10-bit fixed point).

use serde::{Deserialize, Serialize};

use super::{half_flight, Ack, Congestion, CongestionControl, Reno, Subflows, Window};
use crate::time::Time;

/// DCTCP's constants (RFC 8257 §3.3, Linux's module parameters).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DctcpParams {
    /// Weight of the newest window in α (RFC 8257 §3.3: 1/16; Linux `dctcp_shift_g` = 4, g = 2⁻⁴).
    pub g: f64,
    /// α before the first window ends (RFC 8257 §3.3 recommends 1; Linux `dctcp_alpha_on_init` = 1024/1024).
    pub alpha_init: f64,
}

impl Default for DctcpParams {
    fn default() -> Self {
        DctcpParams { g: 1.0 / 16.0, alpha_init: 1.0 }
    }
}

impl DctcpParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.g > 0.0 && self.g <= 1.0) {
            return Err(format!("g must be in (0, 1], got {}", self.g));
        }
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(format!("alpha_init must be in [0, 1], got {}", self.alpha_init));
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Dctcp {
    params: DctcpParams,
    /// DCTCP.Alpha, the estimated fraction of marked bytes.
    alpha: f64,
    /// DCTCP.BytesAcked of the current window, in segments.
    acked: f64,
    /// DCTCP.BytesMarked: acknowledged by ACKs carrying ECE, in segments.
    marked: f64,
    /// DCTCP.WindowEnd: the window closes when snd_una reaches it (snd_nxt at its start;
    /// 0 at connection start, as Linux `dctcp_reset` sets next_seq = snd_nxt).
    window_end: f64,
}

impl Dctcp {
    pub fn new(params: DctcpParams) -> Dctcp {
        let alpha = params.alpha_init;
        Dctcp { params, alpha, acked: 0.0, marked: 0.0, window_end: 0.0 }
    }
}

impl CongestionControl for Dctcp {
    /// RFC 8257 §3.3 steps 1–8, run before the ECE reaction of the same ACK (as Linux's
    /// `in_ack_event` runs before `tcp_fastretrans_alert`).
    fn on_ack(&mut self, _g: Subflows, _w: &Window, ack: &Ack) {
        self.acked += ack.acked; // steps 1–2
        if ack.ece {
            self.marked += ack.acked; // step 3
        }
        // Step 4. Linux `!before(snd_una, next_seq)`: the window ends once all data sent at
        // its start is acknowledged (RFC 8257 waits for an ACK beyond WindowEnd).
        if ack.snd_una < self.window_end {
            return;
        }
        let g = self.params.g;
        let fraction = if self.acked > 0.0 { self.marked / self.acked } else { 0.0 }; // step 5
        self.alpha = (1.0 - g) * self.alpha + g * fraction; // step 6
        self.window_end = ack.snd_nxt; // step 7
        self.acked = 0.0; // step 8
        self.marked = 0.0;
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        Reno.grow(g, w, ack); // RFC 8257 §3.4 changes only the decrease
    }

    fn ssthresh(&mut self, _g: Subflows, w: &Window, flight: f64, why: Congestion, _now: Time) -> f64 {
        match why {
            // RFC 8257 §3.4: cwnd·(1 − α/2), at least 2 (Linux `dctcp_ssthresh`).
            Congestion::Ecn => (w.cwnd * (1.0 - self.alpha / 2.0)).max(2.0),
            // RFC 8257 §3.5: loss is answered as standard TCP does (RFC 5681 halving).
            Congestion::Loss | Congestion::Timeout => half_flight(flight),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(snd_una: f64, snd_nxt: f64, acked: f64, ece: bool) -> Ack {
        Ack { acked, ece, snd_una, snd_nxt, ..Default::default() }
    }

    #[test]
    fn alpha_decays_geometrically_without_marks() {
        // RFC 8257 §3.3 by hand: α = (15/16)ⁿ after n unmarked windows;
        // by hand ln(15/16) = −0.06454: n = 16 → e^−1.0326 = 0.356, n = 50 → e^−3.2269 = 0.040.
        // Each ACK acks 10 segments and reaches the window end set by the previous one.
        let mut d = Dctcp::new(DctcpParams::default());
        let w = Window { cwnd: 10.0, ssthresh: 5.0 };
        for n in 1..=50 {
            let una = 10.0 * n as f64;
            d.on_ack(Subflows::ALONE, &w, &ack(una, una + 10.0, 10.0, false));
            if n == 16 {
                assert!((d.alpha - 0.356).abs() < 0.0005, "α after 16 = {}", d.alpha);
            }
        }
        assert!((d.alpha - 0.040).abs() < 0.0005, "α after 50 = {}", d.alpha);
    }

    #[test]
    fn alpha_takes_the_fraction_of_marked_bytes_per_window() {
        let mut d = Dctcp::new(DctcpParams::default());
        let w = Window { cwnd: 10.0, ssthresh: 5.0 };
        // The first ACK closes the initial window (end 0), unmarked: α = 15/16; window end 11.
        d.on_ack(Subflows::ALONE, &w, &ack(1.0, 11.0, 1.0, false));
        assert_eq!(d.alpha, 15.0 / 16.0);
        assert_eq!(d.window_end, 11.0);
        // Next window: 10 segments acked up to 11, 3 of them by ECE ACKs → F = 0.3:
        // α = (15/16)² + 0.3/16 = 0.87890625 + 0.01875 = 0.89765625. Nothing changes before 11.
        for una in 2..=11 {
            d.on_ack(Subflows::ALONE, &w, &ack(una as f64, una as f64 + 10.0, 1.0, (5..8).contains(&una)));
            if una < 11 {
                assert_eq!(d.alpha, 15.0 / 16.0);
            }
        }
        assert!((d.alpha - 0.89765625).abs() < 1e-12, "α = {}", d.alpha);
        // Delayed ACKs of 2 segments; the window now ends at 21 (snd_nxt of the ACK that
        // closed the last one). ACKs to 13, 15, 17, 19 unmarked, to 21 marked and closing it:
        // 10 acked, 2 marked, F = 0.2: α = 0.89765625·15/16 + 0.2/16 = 0.841552734375 + 0.0125.
        for (una, ece) in [(13.0, false), (15.0, false), (17.0, false), (19.0, false), (21.0, true)] {
            d.on_ack(Subflows::ALONE, &w, &ack(una, una + 10.0, 2.0, ece));
        }
        assert!((d.alpha - 0.854052734375).abs() < 1e-12, "α = {}", d.alpha);
    }

    #[test]
    fn ecn_reduction_scales_with_alpha() {
        // RFC 8257 §3.3 by hand: cwnd 100, α 0.5 → 100·(1 − 0.25) = 75; α 1 → 50 (like Reno).
        let w = Window { cwnd: 100.0, ssthresh: 1e9 };
        let mut half = Dctcp::new(DctcpParams { alpha_init: 0.5, ..Default::default() });
        assert_eq!(half.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Ecn, 0), 75.0);
        let mut full = Dctcp::new(DctcpParams::default());
        assert_eq!(full.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Ecn, 0), 50.0);
        // Floor of 2 segments: cwnd 3, α 1 → 1.5 → 2.
        assert_eq!(full.ssthresh(Subflows::ALONE, &Window { cwnd: 3.0, ssthresh: 1e9 }, 3.0, Congestion::Ecn, 0), 2.0);
    }

    #[test]
    fn loss_halves_whatever_alpha_is() {
        // RFC 8257 §3.5: FlightSize/2 (50 for 100 in flight), not 100·(1 − 0.1/2) = 95.
        let w = Window { cwnd: 100.0, ssthresh: 1e9 };
        let mut d = Dctcp::new(DctcpParams { alpha_init: 0.1, ..Default::default() });
        assert_eq!(d.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Loss, 0), 50.0);
        assert_eq!(d.ssthresh(Subflows::ALONE, &w, 30.0, Congestion::Timeout, 0), 15.0);
    }

    #[test]
    fn growth_is_renos() {
        let mut d = Dctcp::new(DctcpParams::default());
        let mut w = Window { cwnd: 10.0, ssthresh: 5.0 };
        d.grow(Subflows::ALONE, &mut w, &ack(1.0, 11.0, 1.0, false));
        assert!((w.cwnd - 10.1).abs() < 1e-12);
    }
}
