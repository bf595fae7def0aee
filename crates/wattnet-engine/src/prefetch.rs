//! Software prefetching: asking the processor for cache lines before they are read.

/// Asks the processor to bring the first `lines` cache lines of `r` (at most its size) into
/// cache: a hint, which changes nothing the program computes.
#[inline(always)]
pub fn prefetch_lines<T>(r: &T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    for i in 0..lines.min(std::mem::size_of::<T>().div_ceil(64)) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let line = (r as *const T).cast::<i8>().wrapping_add(64 * i);
        // SAFETY: a prefetch reads nothing architecturally and cannot fault; the address lies
        // within a live value, and SSE is part of the x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (r, lines);
}

/// Asks for every line of `r`.
#[inline(always)]
pub fn prefetch_whole<T>(r: &T) {
    prefetch_lines(r, usize::MAX);
}

/// Asks for the line two lines past the head of a ring read in order (a queue, a pipe): a long
/// ring's lines leave the cache between their writing at the tail and their reading at the head.
#[inline(always)]
pub fn prefetch_ring_ahead<T>(ring: &std::collections::VecDeque<T>) {
    if let Some(ahead) = ring.get(2 * 64 / std::mem::size_of::<T>().max(1)) {
        prefetch_lines(ahead, 1);
    }
}
