//! The process runtime std would otherwise provide: the C `main` entry
//! point (argv and the environment), the global allocator (libc's), and,
//! in builds without std (`panic = "abort"`), the panic handler.
//!
//! Builds with `panic = "unwind"` (tests and debug builds: Cargo always
//! unwinds under `cargo test`) link std for its unwinding runtime; its
//! panic handler then serves, and nothing else of std is used.

use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use core::ffi::CStr;

use libc::{c_char, c_int, c_void};

/// The C entry point: glibc calls it after its own start-up.
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char, envp: *const *const c_char) -> c_int {
    entry(argc, argv, envp)
}

/// Collects argv and the environment, then runs the hook call.
#[cfg_attr(test, allow(dead_code))]
fn entry(argc: c_int, argv: *const *const c_char, envp: *const *const c_char) -> c_int {
    // std ignores SIGPIPE at start-up so that writing to a closed pipe is an
    // EPIPE error, not death; so does the shim (an agent that stopped
    // reading must still get the exit code).
    // SAFETY: installing SIG_IGN has no preconditions.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let count = usize::try_from(argc).unwrap_or(0);
    // SAFETY: the C runtime passes `argc` valid NUL-terminated strings in
    // `argv`, followed by a null pointer.
    let args = unsafe { strings(argv, Some(count)) };
    // SAFETY: `envp` is the null-terminated environment array the C
    // runtime passes to `main`; nothing modifies it while we copy it.
    let env = unsafe { strings(envp, None) };
    let env = env.into_iter().map(split_var).collect();
    c_int::from(crate::hook_call(args.into_iter().skip(1).collect(), env))
}

/// Copies a null-terminated array of C strings (at most `max` of them).
///
/// # Safety
/// `list` must be null or point to an array of valid NUL-terminated
/// strings ending with a null pointer (or holding at least `max` strings).
unsafe fn strings(list: *const *const c_char, max: Option<usize>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    let mut i = 0;
    while max.is_none_or(|max| i < max) {
        // SAFETY: the caller guarantees entries up to the terminating null
        // (or `max`) are readable.
        let entry = unsafe { *list.add(i) };
        if entry.is_null() {
            break;
        }
        // SAFETY: non-null entries are valid NUL-terminated strings.
        out.push(unsafe { CStr::from_ptr(entry) }.to_bytes().to_vec());
        i += 1;
    }
    out
}

/// `NAME=value` → (name, value), split at the first `=` after the first
/// byte, as std does; an entry without one is a name with an empty value.
fn split_var(mut entry: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    match entry.iter().skip(1).position(|&b| b == b'=') {
        Some(at) => {
            let value = entry.split_off(at + 2);
            entry.truncate(at + 1);
            (entry, value)
        }
        None => (entry, Vec::new()),
    }
}

/// libc's malloc, as std's `System` allocator uses it: plain `malloc` when
/// it already guarantees the alignment, `posix_memalign` otherwise.
struct Malloc;

/// What glibc's malloc aligns to on 64-bit targets.
const MALLOC_ALIGN: usize = 16;

// SAFETY: every method returns memory from libc's allocator with at least
// the requested size and alignment, or null on failure.
unsafe impl GlobalAlloc for Malloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size() {
            // SAFETY: malloc has no preconditions.
            unsafe { libc::malloc(layout.size()).cast() }
        } else {
            aligned(layout)
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size() {
            // SAFETY: calloc has no preconditions.
            unsafe { libc::calloc(layout.size(), 1).cast() }
        } else {
            let ptr = aligned(layout);
            if !ptr.is_null() {
                // SAFETY: `ptr` holds `layout.size()` writable bytes.
                unsafe { ptr.write_bytes(0, layout.size()) };
            }
            ptr
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from malloc, calloc, realloc or
        // posix_memalign, all freed with free.
        unsafe { libc::free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= new_size {
            // SAFETY: `ptr` came from this allocator with malloc's alignment.
            unsafe { libc::realloc(ptr.cast(), new_size).cast() }
        } else {
            // SAFETY: the caller upholds GlobalAlloc::realloc's contract,
            // which the default implementation relies on.
            unsafe {
                let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
                if !new.is_null() {
                    new.copy_from_nonoverlapping(ptr, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                new
            }
        }
    }
}

fn aligned(layout: Layout) -> *mut u8 {
    let mut out: *mut c_void = core::ptr::null_mut();
    let align = layout.align().max(core::mem::size_of::<usize>());
    // SAFETY: `align` is a power of two and a multiple of the pointer size,
    // as posix_memalign requires; `out` is writable.
    let rc = unsafe { libc::posix_memalign(&mut out, align, layout.size()) };
    if rc == 0 {
        out.cast()
    } else {
        core::ptr::null_mut()
    }
}

#[cfg(not(test))]
#[global_allocator]
static ALLOCATOR: Malloc = Malloc;

/// Without std, a panic (which would be a shim bug: nothing input can
/// reach panics) aborts, as `panic = "abort"` does with std.
#[cfg(all(not(test), panic = "abort"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    // SAFETY: abort has no preconditions and never returns.
    unsafe { libc::abort() }
}

/// core is precompiled with unwind tables that name this symbol even when
/// the binary aborts on panic; it is never called.
#[cfg(all(not(test), panic = "abort"))]
#[unsafe(no_mangle)]
extern "C" fn rust_eh_personality() {}

// Without std nothing links the C library (the `libc` crate leaves that to
// std), so the shim does, and the unwinder (`_Unwind_Resume`, referred to
// by core's landing pads and by a few static glibc functions) as std links
// it: libgcc_eh when static, libgcc_s when dynamic.
#[cfg(all(not(test), panic = "abort"))]
#[cfg_attr(
    target_feature = "crt-static",
    link(name = "c", kind = "static"),
    link(name = "gcc_eh", kind = "static"),
    link(name = "gcc", kind = "static"),
    link(name = "c", kind = "static")
)]
#[cfg_attr(
    not(target_feature = "crt-static"),
    link(name = "c"),
    link(name = "gcc_s")
)]
unsafe extern "C" {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_split_like_std() {
        let cases: &[(&[u8], &[u8], &[u8])] = &[
            (b"A=b", b"A", b"b"),
            (b"A=b=c", b"A", b"b=c"),
            (b"A=", b"A", b""),
            (b"=A=b", b"=A", b"b"),
            (b"NOVALUE", b"NOVALUE", b""),
        ];
        for (entry, name, value) in cases {
            let (n, v) = split_var(entry.to_vec());
            assert_eq!((n.as_slice(), v.as_slice()), (*name, *value), "{entry:?}");
        }
    }

    #[test]
    fn copies_null_terminated_lists() {
        let a = c"one";
        let b = c"two";
        let list = [a.as_ptr(), b.as_ptr(), core::ptr::null()];
        // SAFETY: a valid null-terminated list of C strings.
        let all = unsafe { strings(list.as_ptr(), None) };
        assert_eq!(all, [b"one".to_vec(), b"two".to_vec()]);
        // SAFETY: as above.
        let first = unsafe { strings(list.as_ptr(), Some(1)) };
        assert_eq!(first, [b"one".to_vec()]);
    }

    #[test]
    fn the_allocator_honours_alignment() {
        for (size, align) in [(1, 1), (24, 8), (3, 64), (100, 4096)] {
            let layout = Layout::from_size_align(size, align).unwrap();
            // SAFETY: non-zero sizes; each block is freed with its layout.
            unsafe {
                let ptr = Malloc.alloc_zeroed(layout);
                assert!(!ptr.is_null());
                assert_eq!(ptr as usize % align, 0);
                assert!(
                    core::slice::from_raw_parts(ptr, size)
                        .iter()
                        .all(|&b| b == 0)
                );
                let grown = Malloc.realloc(ptr, layout, size * 3);
                assert_eq!(grown as usize % align, 0);
                Malloc.dealloc(grown, Layout::from_size_align(size * 3, align).unwrap());
            }
        }
    }
}
