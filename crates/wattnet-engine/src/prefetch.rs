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
