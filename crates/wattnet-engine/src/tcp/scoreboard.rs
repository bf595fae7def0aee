//! The sender's record of what it sent and what the receiver holds (RFC 6675 §3–4),
//! kept incrementally: every segment is SACKed, marked lost and passed by the retransmission
//! cursor at most once, and the counts behind the pipe are kept running (as Linux's
//! `sacked_out`, `lost_out` and `retrans_out`), so an ACK costs the same whatever the window.

use std::collections::VecDeque;

use super::ranges::RangeSet;
use crate::time::Time;

/// A segment sent and not yet cumulatively acknowledged.
#[derive(Clone, Copy, Debug)]
pub struct Sent {
    pub start: u64,
    pub end: u64,
    /// The data sequence number of `start` on a multipath connection (RFC 8684 §3.3.1: a
    /// retransmission on the same subflow keeps its mapping); 0 on a single path.
    pub dsn: u64,
    pub sent_at: Time,
    /// Ever retransmitted (Karn's rule: no RTT sample from it without timestamps).
    pub retransmitted: bool,
    pub sacked: bool,
    /// RFC 6675 §4 IsLost, or marked lost by a retransmission timeout.
    pub lost: bool,
    /// A retransmission of it is in flight (RFC 6675 SetPipe (b)).
    pub retrans_out: bool,
    /// snd.max when it was last retransmitted (Linux's `ack_seq`, ns-2.35's `snd_nxt` of a
    /// retransmitted `ScoreBoardNode1`): data from there on was sent after the retransmission.
    pub rtx_snd_max: u64,
    /// Its last retransmission's place in the order of the connection's retransmissions (from 1).
    pub rtx_serial: u64,
}

#[derive(Debug, Default)]
pub struct Scoreboard {
    segs: VecDeque<Sent>,
    /// The sender's copy of the receiver's SACKed ranges above snd_una: sorted, disjoint.
    ranges: RangeSet,
    sacked: u32,
    /// Lost and not SACKed.
    lost: u32,
    /// Retransmitted, not SACKed, retransmission not presumed lost.
    retrans_out: u32,
    /// Every un-SACKed segment ending at or below this is marked lost.
    lost_upto: u64,
    /// RFC 6675 NextSeg's cursor: segments below it are SACKed or were retransmitted (or their
    /// retransmission was found lost, when it is moved back to them).
    rxt_scan: u64,
    /// Retransmissions sent so far, and the highest serial of one acknowledged (cumulatively or
    /// by SACK).
    rtx_sent: u64,
    rtx_acked: u64,
    /// Lower bounds of `rtx_snd_max` and `rtx_serial` over the retransmissions in flight (while
    /// `retrans_out` > 0): until the SACKs or `rtx_acked` pass them none is found lost, so the
    /// scoreboard is walked only when one may be (as Linux's `lost_retrans_low`).
    rtx_snd_max_low: u64,
    rtx_serial_low: u64,
}

impl Scoreboard {
    pub fn front(&self) -> Option<&Sent> {
        self.segs.front()
    }

    pub fn sacked_count(&self) -> u32 {
        self.sacked
    }

    pub fn push(&mut self, s: Sent) {
        self.segs.push_back(s);
    }

    /// The index of the segment holding `seq`, if any.
    fn index_of(&self, seq: u64) -> Option<usize> {
        let i = self.segs.partition_point(|s| s.end <= seq);
        (i < self.segs.len() && self.segs[i].start <= seq).then_some(i)
    }

    pub fn get(&self, seq: u64) -> Option<&Sent> {
        self.index_of(seq).map(|i| &self.segs[i])
    }

    pub fn get_mut(&mut self, seq: u64) -> Option<&mut Sent> {
        self.index_of(seq).map(|i| &mut self.segs[i])
    }

    /// Drops the segments `ack` covers; returns the bytes of them that were SACKed before.
    pub fn cumulative_ack(&mut self, ack: u64) -> u64 {
        let mut sacked_bytes = 0;
        while let Some(s) = self.segs.front().filter(|s| s.end <= ack).copied() {
            self.segs.pop_front();
            if s.sacked {
                self.sacked -= 1;
                sacked_bytes += s.end - s.start;
            } else {
                self.lost -= s.lost as u32;
                self.retrans_out -= s.retrans_out as u32;
                if s.retrans_out {
                    self.rtx_acked = self.rtx_acked.max(s.rtx_serial);
                }
            }
        }
        self.ranges.remove_below(ack);
        sacked_bytes
    }

    /// RFC 6675 §4 Update(): marks what the blocks newly cover; returns the bytes newly SACKed.
    /// Only the parts not already in the sender's ranges are walked.
    pub fn sack(&mut self, blocks: &[(u64, u64)], snd_una: u64) -> u64 {
        let mut newly = 0;
        for &(l, r) in blocks {
            let l = l.max(snd_una);
            if r <= l {
                continue;
            }
            let mut at = l;
            let mut i = self.ranges.as_slice().partition_point(|&(_, e)| e < l);
            while at < r {
                let gap_end = match self.ranges.as_slice().get(i) {
                    Some(&(s, _)) if s < r => s,
                    _ => r,
                };
                if at < gap_end {
                    newly += self.mark_sacked(at, gap_end);
                }
                match self.ranges.as_slice().get(i) {
                    Some(&(s, e)) if s < r => {
                        at = at.max(e);
                        i += 1;
                    }
                    _ => at = r,
                }
            }
            self.ranges.insert(l, r);
        }
        newly
    }

    fn mark_sacked(&mut self, from: u64, to: u64) -> u64 {
        let mut bytes = 0;
        let Some(mut i) = self.index_of(from) else { return 0 };
        while let Some(s) = self.segs.get_mut(i) {
            if s.end > to {
                break;
            }
            if s.start >= from && !s.sacked {
                s.sacked = true;
                self.sacked += 1;
                self.lost -= s.lost as u32;
                self.retrans_out -= s.retrans_out as u32;
                if s.retrans_out {
                    self.rtx_acked = self.rtx_acked.max(s.rtx_serial);
                }
                bytes += s.end - s.start;
            }
            i += 1;
        }
        bytes
    }

    /// RFC 6675 §4 IsLost for every segment: an un-SACKed segment with `dupthresh` SACKed
    /// segments above it is lost. The point below which that holds only rises, so each
    /// segment is marked once.
    pub fn mark_lost(&mut self, dupthresh: u32) {
        // The start of the dupthresh-th highest SACKed segment.
        let mut need = dupthresh as usize;
        let mut frontier = None;
        for &(l, r) in self.ranges.as_slice().iter().rev() {
            let (Some(a), Some(b)) = (self.index_of(l), self.index_of(r - 1)) else { continue };
            let n = b + 1 - a;
            if n >= need {
                frontier = Some(self.segs[b + 1 - need].start);
                break;
            }
            need -= n;
        }
        if let Some(f) = frontier {
            self.mark_lost_below(f);
        }
    }

    /// Marks every un-SACKed segment ending at or below `upto` lost.
    fn mark_lost_below(&mut self, upto: u64) {
        if upto <= self.lost_upto {
            return;
        }
        let from = self.segs.partition_point(|s| s.end <= self.lost_upto);
        for s in self.segs.range_mut(from..) {
            if s.end > upto {
                break;
            }
            if !s.sacked && !s.lost {
                s.lost = true;
                self.lost += 1;
            }
        }
        self.lost_upto = upto;
    }

    /// RFC 6675 §6 SetPipe, from the running counts: outstanding segments, less those SACKed
    /// or lost, plus the retransmissions in flight.
    pub fn pipe(&self) -> u32 {
        self.segs.len() as u32 - self.sacked - self.lost + self.retrans_out
    }

    /// RFC 6675 §4 NextSeg's candidate for rules 1 and 3: the lowest un-SACKed segment above
    /// HighRxt (not yet retransmitted), lost or not.
    pub fn next_unsacked(&mut self) -> Option<Sent> {
        let mut i = self.segs.partition_point(|s| s.end <= self.rxt_scan);
        while let Some(s) = self.segs.get(i) {
            if s.sacked || s.retrans_out {
                self.rxt_scan = s.end;
                i += 1;
                continue;
            }
            return Some(*s);
        }
        None
    }

    /// The end of the highest SACKed range (RFC 6675 NextSeg (1.b): "the highest octet covered
    /// by any received SACK").
    pub fn highest_sacked(&self) -> Option<u64> {
        self.ranges.as_slice().last().map(|&(_, r)| r)
    }

    /// The highest outstanding segment not SACKed (RFC 6675 NextSeg rule 4's rescue).
    pub fn highest_unsacked(&self) -> Option<Sent> {
        self.segs.iter().rev().find(|s| !s.sacked).copied()
    }

    /// A segment was sent again while the highest sequence sent was `snd_max`: its
    /// retransmission is in flight.
    pub fn retransmitted(&mut self, seq: u64, now: Time, snd_max: u64) {
        let Some(i) = self.index_of(seq) else { return };
        self.rtx_sent += 1;
        let s = &mut self.segs[i];
        s.retransmitted = true;
        s.sent_at = now;
        s.rtx_snd_max = snd_max;
        s.rtx_serial = self.rtx_sent;
        if !s.sacked && !s.retrans_out {
            s.retrans_out = true;
            if self.retrans_out == 0 {
                (self.rtx_snd_max_low, self.rtx_serial_low) = (snd_max, self.rtx_sent);
            }
            self.retrans_out += 1;
        }
    }

    /// Finds retransmissions lost in their turn, as ns-2.35's TCP-Linux agent does
    /// (`scoreboard1.cc` `ScoreBoard1::UpdateScoreBoard()`, on every ACK): a retransmission is
    /// lost once data first sent after it is SACKed (its `snd_nxt` at or below `fack_`; Linux
    /// 2.6's `tcp_mark_lost_retrans`: the highest SACKed octet beyond the `ack_seq` recorded at
    /// the retransmission), or once a retransmission sent more than `dupthresh` + 1 after it is
    /// acknowledged (`rtx_id` + dupthresh + 1 < `acked_rtx_id_`). Each is marked lost, leaves
    /// the pipe and is resent by NextSeg rule 1 (the cursor moves back to it).
    pub fn mark_lost_retransmissions(&mut self, dupthresh: u32) {
        let received_upto = self.highest_sacked().unwrap_or(0);
        let acked = self.rtx_acked;
        let lost = |snd_max: u64, serial: u64| snd_max < received_upto || serial + dupthresh as u64 + 1 < acked;
        if self.retrans_out == 0 || !lost(self.rtx_snd_max_low, self.rtx_serial_low) {
            return;
        }
        let (mut snd_max_low, mut serial_low) = (u64::MAX, u64::MAX);
        for s in self.segs.iter_mut().filter(|s| s.retrans_out && !s.sacked) {
            if lost(s.rtx_snd_max, s.rtx_serial) {
                s.retrans_out = false;
                self.retrans_out -= 1;
                if !s.lost {
                    s.lost = true;
                    self.lost += 1;
                }
                self.rxt_scan = self.rxt_scan.min(s.start);
            } else {
                snd_max_low = snd_max_low.min(s.rtx_snd_max);
                serial_low = serial_low.min(s.rtx_serial);
            }
        }
        (self.rtx_snd_max_low, self.rtx_serial_low) = (snd_max_low, serial_low);
    }

    /// A new recovery episode: NextSeg starts again from snd_una.
    pub fn restart_cursor(&mut self) {
        self.rxt_scan = 0;
    }

    /// A retransmission timeout: every un-SACKed segment is presumed lost, its earlier
    /// retransmission too (Linux `tcp_timeout_mark_lost`).
    pub fn timeout(&mut self) {
        for s in &mut self.segs {
            s.retrans_out = false;
            s.lost = !s.sacked;
        }
        self.retrans_out = 0;
        self.lost = self.segs.len() as u32 - self.sacked;
        self.lost_upto = self.segs.back().map_or(0, |s| s.end);
        self.rxt_scan = 0;
    }

    /// RFC 2018 §8 / RFC 6675 §5.1: the receiver may discard SACKed data; the SACK
    /// information is forgotten.
    pub fn forget_sacks(&mut self) {
        for s in &mut self.segs {
            s.sacked = false;
        }
        self.sacked = 0;
        self.ranges.clear();
    }

    /// Reneging shows when the cumulative ACK stops at a segment the receiver SACKed.
    pub fn head_is_sacked(&self) -> bool {
        self.segs.front().is_some_and(|s| s.sacked)
    }
}
