//! Reno's AIMD window (RFC 5681), also used by Tahoe and NewReno: they differ only in loss
//! recovery, which the sender implements.

use super::{half_flight, reno_avoidance, slow_start, Ack, Congestion, CongestionControl, Subflows, Window};
use crate::time::Time;

#[derive(Clone, Debug, Default)]
pub struct Reno;

impl CongestionControl for Reno {
    fn grow(&mut self, _g: Subflows, w: &mut Window, ack: &Ack) {
        let left = slow_start(w, ack.acked);
        if left > 0.0 {
            reno_avoidance(w, left);
        }
    }

    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(acked: f64) -> Ack {
        Ack { acked, ..Default::default() }
    }

    #[test]
    fn congestion_avoidance_adds_one_segment_per_window() {
        // RFC 5681 §3.1 by hand: cwnd 10, ten ACKs of one segment → Σ 1/cwnd_i ≈ 10.95.
        let mut w = Window { cwnd: 10.0, ssthresh: 5.0 };
        let mut expected = 10.0;
        for _ in 0..10 {
            Reno.grow(Subflows::ALONE, &mut w, &ack(1.0));
            expected += 1.0 / expected;
        }
        assert!((w.cwnd - expected).abs() < 1e-12);
        assert!((w.cwnd - 10.95).abs() < 0.01);
    }

    #[test]
    fn slow_start_doubles_per_window_and_stops_at_ssthresh() {
        let mut w = Window { cwnd: 2.0, ssthresh: 8.0 };
        for _ in 0..2 {
            Reno.grow(Subflows::ALONE, &mut w, &ack(1.0));
        }
        assert_eq!(w.cwnd, 4.0);
        // An ACK of 5 segments at cwnd 4: 4 more reach ssthresh 8, the 5th is avoidance.
        Reno.grow(Subflows::ALONE, &mut w, &ack(5.0));
        assert!((w.cwnd - (8.0 + 1.0 / 8.0)).abs() < 1e-12);
    }

    #[test]
    fn loss_halves_the_flight_with_a_floor_of_two() {
        let w = Window { cwnd: 20.0, ssthresh: 100.0 };
        assert_eq!(Reno.ssthresh(Subflows::ALONE, &w, 20.0, Congestion::Loss, 0), 10.0);
        assert_eq!(Reno.ssthresh(Subflows::ALONE, &w, 3.0, Congestion::Timeout, 0), 2.0);
    }
}
