//! A fixed-size buffer for big tables, aligned to 2 MiB and marked for transparent huge pages
//! on Linux: with 4 KiB pages every random table probe also misses the TLB, which costs as
//! much as the cache miss itself.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};

const HUGE_PAGE: usize = 2 << 20;

/// A heap slice of `len` copies of a value, huge-page backed where the OS allows it.
pub struct HugeBuf<T: Copy> {
    ptr: *mut T,
    len: usize,
    layout: Layout,
}

// SAFETY: HugeBuf owns its memory exclusively, like a Box<[T]>.
unsafe impl<T: Copy + Send> Send for HugeBuf<T> {}
// SAFETY: shared access only hands out &[T].
unsafe impl<T: Copy + Sync> Sync for HugeBuf<T> {}

impl<T: Copy> HugeBuf<T> {
    /// `len` (≥ 1) copies of `fill`.
    pub fn new(len: usize, fill: T) -> Self {
        let len = len.max(1);
        let size = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size overflows");
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>().max(64)
        };
        let layout = Layout::from_size_align(size.max(1), align).expect("valid layout");
        // SAFETY: layout has non-zero size; the pointer is checked for null.
        let ptr = unsafe { alloc(layout) } as *mut T;
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            // SAFETY: advising our own freshly allocated, page-aligned range; failure is
            // harmless (we just get normal pages).
            unsafe {
                libc::madvise(ptr as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
            }
        }
        for i in 0..len {
            // SAFETY: i < len, inside the allocation; writing initialises the element.
            unsafe { ptr.add(i).write(fill) };
        }
        Self { ptr, len, layout }
    }
}

impl<T: Copy> HugeBuf<T> {
    /// The buffer's start as a raw pointer with the allocation's write permission, for
    /// atomic access from several threads through `&self` (a table shared by the threads of
    /// a parallel solve). Every concurrent access must be atomic.
    pub fn raw(&self) -> *mut T {
        self.ptr
    }
}

impl<T: Copy> Deref for HugeBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: ptr points to len initialised elements owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Copy> DerefMut for HugeBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in deref, and &mut self guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T: Copy> Drop for HugeBuf<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in new with exactly this layout; T: Copy needs no drop.
        unsafe { dealloc(self.ptr as *mut u8, self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_and_writable() {
        let mut b = HugeBuf::new(1 << 20, 7u32);
        assert!(b.iter().all(|&x| x == 7));
        b[12345] = 1;
        assert_eq!(b.iter().filter(|&&x| x == 1).count(), 1);
        assert_eq!(b.len(), 1 << 20);
    }
}
