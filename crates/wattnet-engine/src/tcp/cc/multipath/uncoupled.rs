//! A single-path algorithm on every subflow of a connection, each instance on its own
//! ("uncoupled", e.g. uncoupled Reno: Wischik, Raiciu, Greenhalgh, Handley, NSDI 2011 §2).

use super::super::{Ack, Congestion, CongestionControl, Subflows, Window};
use crate::time::Time;

/// One instance per subflow; each hook goes to the acting subflow's instance, which sees a
/// group of one (itself), as on a single-path connection.
#[derive(Debug)]
pub struct Uncoupled {
    each: Vec<Box<dyn CongestionControl>>,
}

impl Uncoupled {
    /// `make` builds one instance; it is called once per subflow.
    pub fn new(subflows: usize, make: impl Fn() -> Box<dyn CongestionControl>) -> Uncoupled {
        Uncoupled { each: (0..subflows).map(|_| make()).collect() }
    }

    fn route<'a>(&mut self, g: Subflows<'a>) -> (&mut dyn CongestionControl, Subflows<'a>) {
        let alone = Subflows { index: 0, all: std::slice::from_ref(&g.all[g.index]) };
        (self.each[g.index].as_mut(), alone)
    }
}

impl CongestionControl for Uncoupled {
    fn on_ack(&mut self, g: Subflows, w: &Window, ack: &Ack) {
        let (cc, alone) = self.route(g);
        cc.on_ack(alone, w, ack);
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        let (cc, alone) = self.route(g);
        cc.grow(alone, w, ack);
    }

    fn ssthresh(&mut self, g: Subflows, w: &Window, flight: f64, why: Congestion, now: Time) -> f64 {
        let (cc, alone) = self.route(g);
        cc.ssthresh(alone, w, flight, why, now)
    }

    fn on_recovery_end(&mut self, g: Subflows, w: &Window, now: Time) {
        let (cc, alone) = self.route(g);
        cc.on_recovery_end(alone, w, now);
    }

    /// Every instance is built from the same parameters, so the first one speaks for all.
    fn initial_ssthresh(&self) -> Option<f64> {
        self.each[0].initial_ssthresh()
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{from_spec, CcSpec, Cubic, CubicParams, SubflowView};
    use super::*;
    use crate::time::from_secs;

    fn ack(now_s: f64) -> Ack {
        Ack { now: from_secs(now_s), acked: 1.0, rtt: Some(from_secs(0.1)), ..Default::default() }
    }

    /// Two CUBIC instances: a loss on subflow 0 sets its W_max and epoch; subflow 1, fed the
    /// same ACKs without a loss, must grow exactly as a CUBIC that never saw that loss.
    #[test]
    fn two_cubic_instances_keep_their_state_apart() {
        let spec = CcSpec::Cubic(CubicParams::default());
        let mut both = from_spec(&spec, false, 2);
        assert!(format!("{both:?}").starts_with("Uncoupled"));
        let mut lone = Cubic::new(CubicParams::default());
        let views = [SubflowView::IDLE, SubflowView::IDLE];
        let on = |index| Subflows { index, all: &views };
        let mut w0 = Window { cwnd: 100.0, ssthresh: 50.0 };
        let mut w1 = w0;
        let mut w_lone = w0;
        // Subflow 0 loses at t = 0 and restarts from its new ssthresh.
        w0.ssthresh = both.ssthresh(on(0), &w0, 100.0, Congestion::Loss, 0);
        assert_eq!(w0.ssthresh, 70.0, "CUBIC's β = 0.7 on subflow 0");
        w0.cwnd = w0.ssthresh;
        both.on_recovery_end(on(0), &w0, 0);
        for k in 1..=50 {
            let a = ack(k as f64 * 0.01);
            both.on_ack(on(0), &w0, &a);
            both.grow(on(0), &mut w0, &a);
            both.on_ack(on(1), &w1, &a);
            both.grow(on(1), &mut w1, &a);
            lone.on_ack(Subflows::ALONE, &w_lone, &a);
            lone.grow(Subflows::ALONE, &mut w_lone, &a);
        }
        assert_eq!(w1, w_lone, "subflow 1 is untouched by subflow 0's loss");
        assert!(w0.cwnd < 100.0 && w1.cwnd > 100.0, "{w0:?} {w1:?}");
    }

    #[test]
    fn a_single_subflow_gets_the_algorithm_itself() {
        let spec = CcSpec::Cubic(CubicParams::default());
        assert!(format!("{:?}", from_spec(&spec, false, 1)).starts_with("Cubic"));
        assert!(format!("{:?}", from_spec(&CcSpec::Reno, false, 3)).starts_with("Uncoupled"));
    }
}
