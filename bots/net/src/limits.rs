//! Caps on concurrent connections, in total and per peer IP address, shared by an accept loop
//! and the connections it admits: [`Limits::admit`] hands out a [`Permit`] that frees its slot
//! when dropped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Connection caps and the current counts.
#[derive(Debug, Clone)]
pub struct Limits {
    inner: Arc<Mutex<Counts>>,
    total: usize,
    per_peer: usize,
}

#[derive(Debug, Default)]
struct Counts {
    open: usize,
    by_peer: HashMap<IpAddr, usize>,
}

/// One admitted connection; dropping it frees the slot.
#[derive(Debug)]
pub struct Permit {
    limits: Limits,
    peer: IpAddr,
}

impl Limits {
    /// At most `total` connections at once, at most `per_peer` from one IP address (both at
    /// least 1).
    pub fn new(total: usize, per_peer: usize) -> Limits {
        Limits {
            inner: Arc::default(),
            total: total.max(1),
            per_peer: per_peer.max(1),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for a new connection from `peer`, or `None` if a cap is reached.
    pub fn admit(&self, peer: IpAddr) -> Option<Permit> {
        let mut c = self.counts();
        let mine = c.by_peer.get(&peer).copied().unwrap_or(0);
        if c.open >= self.total || mine >= self.per_peer {
            return None;
        }
        c.open += 1;
        c.by_peer.insert(peer, mine + 1);
        Some(Permit {
            limits: self.clone(),
            peer,
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.counts().open
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut c = self.limits.counts();
        c.open = c.open.saturating_sub(1);
        if let Some(n) = c.by_peer.get_mut(&self.peer) {
            *n -= 1;
            if *n == 0 {
                c.by_peer.remove(&self.peer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_total_and_per_peer_and_frees_on_drop() {
        let l = Limits::new(3, 2);
        let a: IpAddr = [127, 0, 0, 1].into();
        let b: IpAddr = [127, 0, 0, 2].into();
        let p1 = l.admit(a).unwrap();
        let _p2 = l.admit(a).unwrap();
        assert!(l.admit(a).is_none(), "per-peer cap");
        let _p3 = l.admit(b).unwrap();
        assert!(l.admit(b).is_none(), "total cap");
        drop(p1);
        let _p4 = l.admit(a).unwrap();
        assert_eq!(l.open(), 3);
    }
}
