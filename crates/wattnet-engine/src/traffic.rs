//! UDP traffic sources: constant bit rate, Poisson and on-off, with fixed or random sizes.

use rand::Rng as _;
use rand_distr::{Distribution, Exp};

use crate::error::{positive, rate_bps, ScenarioError, MAX_RATE_BPS};
use crate::rng::Rng;
use crate::scenario::{PacketSizeSpec, TrafficSpec};
use crate::time::{after, checked_secs, from_secs, serialization, Time};

#[derive(Clone, Debug)]
pub enum PacketSize {
    Fixed(u32),
    /// ⌈Exp⌉ bytes, at least 1.
    Exponential {
        dist: Exp<f64>,
        mean: f64,
    },
    Uniform {
        min: u32,
        max: u32,
    },
}

impl PacketSize {
    pub fn from_spec(spec: &PacketSizeSpec, field: &str) -> Result<Self, ScenarioError> {
        Ok(match *spec {
            PacketSizeSpec::Fixed { bytes } if bytes >= 1 => PacketSize::Fixed(bytes),
            PacketSizeSpec::Fixed { .. } => {
                return Err(ScenarioError::new(format!("{field}.bytes"), "must be at least 1"))
            }
            PacketSizeSpec::Exponential { mean_bytes } if mean_bytes.is_finite() && mean_bytes >= 1.0 => {
                PacketSize::Exponential { dist: Exp::new(1.0 / mean_bytes).expect("positive rate"), mean: mean_bytes }
            }
            PacketSizeSpec::Exponential { .. } => {
                return Err(ScenarioError::new(format!("{field}.mean_bytes"), "must be a finite number of at least 1"))
            }
            PacketSizeSpec::Uniform { min_bytes, max_bytes } if 1 <= min_bytes && min_bytes <= max_bytes => {
                PacketSize::Uniform { min: min_bytes, max: max_bytes }
            }
            PacketSizeSpec::Uniform { .. } => {
                return Err(ScenarioError::new(field, "uniform sizes need 1 <= min_bytes <= max_bytes"))
            }
        })
    }

    pub fn mean(&self) -> f64 {
        match *self {
            PacketSize::Fixed(b) => b as f64,
            PacketSize::Exponential { mean, .. } => mean,
            PacketSize::Uniform { min, max } => (min as f64 + max as f64) / 2.0,
        }
    }

    pub fn draw(&self, rng: &mut Rng) -> u32 {
        match self {
            PacketSize::Fixed(b) => *b,
            PacketSize::Exponential { dist, .. } => (dist.sample(rng).ceil() as u32).max(1),
            PacketSize::Uniform { min, max } => rng.gen_range(*min..=*max),
        }
    }
}

/// How the next on period of an on-off source begins.
#[derive(Clone, Debug)]
enum OffPeriod {
    /// After an Exp(mean) silence.
    Exponential(Exp<f64>),
    /// At the next multiple of the cycle after the source's start.
    Cycle { period: Time, next_start: Time },
}

#[derive(Clone, Debug)]
enum Pattern {
    Cbr {
        rate_bps: u64,
    },
    /// Exponential gaps in seconds.
    Poisson {
        gap_s: Exp<f64>,
    },
    OnOff {
        peak_bps: u64,
        on_s: Exp<f64>,
        off: OffPeriod,
        on_until: Time,
    },
}

/// A source emitting the packets of one flow at its source node.
#[derive(Clone, Debug)]
pub struct UdpSource {
    pub flow: u32,
    size: PacketSize,
    pattern: Pattern,
    start: Time,
    stop: Time,
    rng: Rng,
}

impl UdpSource {
    pub fn new(
        flow: u32,
        traffic: &TrafficSpec,
        size: PacketSize,
        start: Time,
        stop: Time,
        rng: Rng,
        field: &str,
    ) -> Result<Self, ScenarioError> {
        let pattern = match *traffic {
            TrafficSpec::Cbr { rate_bps: r } => Pattern::Cbr { rate_bps: rate_bps(r, format!("{field}.rate_bps"))? },
            TrafficSpec::Poisson { rate_bps: r } => {
                let r = positive(r, format!("{field}.rate_bps"))?;
                if r > MAX_RATE_BPS {
                    let message = format!("must be at most {MAX_RATE_BPS:e} bit/s, got {r}");
                    return Err(ScenarioError::new(format!("{field}.rate_bps"), message));
                }
                let packets_per_s = r / (8.0 * size.mean());
                Pattern::Poisson { gap_s: Exp::new(packets_per_s).expect("positive rate") }
            }
            TrafficSpec::OnOff { peak_rate_bps, on_mean_s, off_mean_s, cycle_s } => {
                let peak_bps = rate_bps(peak_rate_bps, format!("{field}.peak_rate_bps"))?;
                let on_s = Exp::new(1.0 / positive(on_mean_s, format!("{field}.on_mean_s"))?).expect("positive");
                let off = match (off_mean_s, cycle_s) {
                    (Some(off), None) => OffPeriod::Exponential(
                        Exp::new(1.0 / positive(off, format!("{field}.off_mean_s"))?).expect("positive"),
                    ),
                    (None, Some(c)) => OffPeriod::Cycle {
                        period: checked_secs(c, &format!("{field}.cycle_s"), true)?,
                        next_start: start,
                    },
                    _ => return Err(ScenarioError::new(field, "on_off needs exactly one of off_mean_s and cycle_s")),
                };
                Pattern::OnOff { peak_bps, on_s, off, on_until: start }
            }
            TrafficSpec::Bulk | TrafficSpec::Transfer { .. } | TrafficSpec::Serial { .. } | TrafficSpec::Web { .. } => {
                return Err(ScenarioError::new(field, "TCP traffic has no UDP source"));
            }
        };
        Ok(UdpSource { flow, size, pattern, start, stop, rng })
    }

    /// Time of the first packet, if it falls before the source stops.
    pub fn first_emission(&mut self) -> Option<Time> {
        let t = match self.pattern {
            Pattern::OnOff { .. } => self.begin_on_period(self.start),
            _ => self.start,
        };
        (t < self.stop).then_some(t)
    }

    /// Draws the size of the packet emitted now and the time of the next one, if any.
    pub fn emit(&mut self, now: Time) -> (u32, Option<Time>) {
        let size = self.size.draw(&mut self.rng);
        let next = match &mut self.pattern {
            Pattern::Cbr { rate_bps } => after(now, serialization(size, *rate_bps)),
            Pattern::Poisson { gap_s } => after(now, from_secs(gap_s.sample(&mut self.rng))),
            Pattern::OnOff { peak_bps, on_until, .. } => {
                let next = after(now, serialization(size, *peak_bps));
                if next < *on_until {
                    next
                } else {
                    let off_end = *on_until;
                    self.begin_on_period(off_end)
                }
            }
        };
        (size, (next < self.stop).then_some(next))
    }

    /// Starts the on period that follows an on period ending at `ended`; returns its start.
    /// Every on period carries at least one packet (as ns-2's exponential on-off source).
    fn begin_on_period(&mut self, ended: Time) -> Time {
        let Pattern::OnOff { on_s, off, on_until, .. } = &mut self.pattern else { unreachable!("on-off only") };
        let (start, max_len) = match off {
            // The first period starts at the source's start, later ones after a silence.
            OffPeriod::Exponential(off_s) if ended > self.start => {
                (after(ended, from_secs(off_s.sample(&mut self.rng))), Time::MAX)
            }
            OffPeriod::Exponential(_) => (ended, Time::MAX),
            OffPeriod::Cycle { period, next_start } => {
                let start = *next_start;
                *next_start = after(*next_start, *period);
                (start, *period)
            }
        };
        *on_until = after(start, from_secs(on_s.sample(&mut self.rng)).min(max_len));
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{domain, stream};
    use crate::time::PS_PER_S;

    fn source(traffic: TrafficSpec, size: PacketSize, stop_s: f64) -> UdpSource {
        UdpSource::new(0, &traffic, size, 0, from_secs(stop_s), stream(1, domain::SOURCE, 0), "flows[0].traffic")
            .unwrap()
    }

    fn emissions(src: &mut UdpSource) -> Vec<(Time, u32)> {
        let mut out = vec![];
        let mut t = src.first_emission();
        while let Some(now) = t {
            let (size, next) = src.emit(now);
            out.push((now, size));
            t = next;
        }
        out
    }

    #[test]
    fn cbr_spaces_packets_by_their_serialization_time() {
        // 1000 B at 1 Mb/s: one packet per 8 ms, so 125 packets in 1 s.
        let mut s = source(TrafficSpec::Cbr { rate_bps: 1e6 }, PacketSize::Fixed(1000), 1.0);
        let e = emissions(&mut s);
        assert_eq!(e.len(), 125);
        assert_eq!(e[1].0 - e[0].0, 8 * PS_PER_S / 1000);
    }

    #[test]
    fn poisson_mean_rate_matches() {
        // 1 Mb/s of 1000 B packets = 125 packets/s; over 200 s expect 25 000 ± 3σ (σ = √25 000 ≈ 158).
        let mut s = source(TrafficSpec::Poisson { rate_bps: 1e6 }, PacketSize::Fixed(1000), 200.0);
        let n = emissions(&mut s).len() as f64;
        assert!((n - 25_000.0).abs() < 3.0 * 158.0, "{n}");
    }

    #[test]
    fn cycled_on_off_bursts_start_every_cycle() {
        let traffic = TrafficSpec::OnOff { peak_rate_bps: 10e6, on_mean_s: 0.1, off_mean_s: None, cycle_s: Some(1.0) };
        let mut s = source(traffic, PacketSize::Fixed(1500), 20.0);
        let e = emissions(&mut s);
        // Every whole second starts a burst, and no packet lies outside [k, k+1) bursts of peak spacing.
        for k in 0..20u64 {
            assert!(e.iter().any(|&(t, _)| t == k * PS_PER_S), "no burst at {k} s");
        }
        // Mean load ≈ 10 Mb/s · E[min(Exp(0.1), 1)] ≈ 1 Mb/s → ≈ 83 packets/s; loose 40 % band over 20 cycles.
        let per_s = e.len() as f64 / 20.0;
        assert!((per_s - 83.3).abs() < 0.4 * 83.3, "{per_s}");
    }

    #[test]
    fn exponential_sizes_have_the_right_mean() {
        let size = PacketSize::from_spec(&PacketSizeSpec::Exponential { mean_bytes: 500.0 }, "x").unwrap();
        let mut rng = stream(3, domain::SOURCE, 0);
        let n = 200_000;
        let mean = (0..n).map(|_| size.draw(&mut rng) as f64).sum::<f64>() / n as f64;
        // ⌈X⌉ adds about 0.5 B on average; σ/√n ≈ 1.1 B.
        assert!((mean - 500.5).abs() < 5.0, "{mean}");
    }
}
