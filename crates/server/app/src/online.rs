//! Who is online: accounts with at least one open WebSocket, for the lobby.
//!
//! In a cluster each node also hears the others' lists (`crate::cluster` publishes this node's
//! every 2 s and feeds in theirs); a node's list is forgotten when it has not been heard from in
//! [`NODE_SILENCE`], so a dead node's players drop out of the lobby by themselves.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::accounts::User;

/// How long another node's list holds without news from it.
pub const NODE_SILENCE: Duration = Duration::from_secs(6);

/// A node's list as last heard: when, and who with how many connections.
type Heard = (Instant, Vec<(User, u32)>);

/// One open connection of an account, counted while it lives (see [`Online::seat`]).
pub struct Seat {
    online: Online,
    user: User,
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.online.leave(&self.user);
    }
}

/// The accounts connected now, with their number of open connections.
#[derive(Clone, Default)]
pub struct Online {
    users: Arc<Mutex<HashMap<i64, (User, u32)>>>,
    /// Other nodes' lists (cluster): when heard, and who.
    others: Arc<Mutex<HashMap<String, Heard>>>,
}

impl Online {
    /// A connection of `user` opened.
    pub fn join(&self, user: &User) {
        if let Ok(mut m) = self.users.lock() {
            m.entry(user.id).or_insert_with(|| (user.clone(), 0)).1 += 1;
        }
    }

    /// A connection of `user` closed.
    pub fn leave(&self, user: &User) {
        if let Ok(mut m) = self.users.lock() {
            if let Some((_, n)) = m.get_mut(&user.id) {
                *n -= 1;
                if *n == 0 {
                    m.remove(&user.id);
                }
            }
        }
    }

    /// A seat for one more connection of `user`, unless the account already holds `max` on
    /// this node and (cluster) the others: checked and taken in one step, so that connections
    /// opened at the same moment cannot all pass the check. The seat is given back when
    /// dropped (the connection closed, or its upgrade failed).
    pub fn seat(&self, user: &User, max: u32) -> Option<Seat> {
        let elsewhere: u32 = self
            .fresh_others()
            .iter()
            .filter(|(u, _)| u.id == user.id)
            .map(|(_, n)| *n)
            .sum();
        let mut m = self.users.lock().ok()?;
        let entry = m.entry(user.id).or_insert_with(|| (user.clone(), 0));
        if entry.1 + elsewhere >= max {
            if entry.1 == 0 {
                m.remove(&user.id);
            }
            return None;
        }
        entry.1 += 1;
        Some(Seat {
            online: self.clone(),
            user: user.clone(),
        })
    }

    /// Open connections of the account `id`, on this node and (cluster) on the others.
    pub fn connections(&self, id: i64) -> u32 {
        let here = self
            .users
            .lock()
            .map(|m| m.get(&id).map_or(0, |(_, n)| *n))
            .unwrap_or(0);
        let elsewhere: u32 = self
            .fresh_others()
            .iter()
            .filter(|(u, _)| u.id == id)
            .map(|(_, n)| *n)
            .sum();
        here + elsewhere
    }

    /// Everyone online, by name, on any node.
    pub fn list(&self) -> Vec<User> {
        let mut v: Vec<User> = self
            .users
            .lock()
            .map(|m| m.values().map(|(u, _)| u.clone()).collect())
            .unwrap_or_default();
        for (u, _) in self.fresh_others() {
            if !v.iter().any(|w| w.id == u.id) {
                v.push(u);
            }
        }
        v.sort_by(|a, b| a.username.cmp(&b.username));
        v
    }

    /// This node's own list, with the connection counts (what it tells the others).
    pub fn local(&self) -> Vec<(User, u32)> {
        self.users
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Node `node`'s list, just heard.
    pub fn heard(&self, node: &str, users: Vec<(User, u32)>) {
        if let Ok(mut o) = self.others.lock() {
            o.insert(node.to_string(), (Instant::now(), users));
        }
    }

    fn fresh_others(&self) -> Vec<(User, u32)> {
        let Ok(mut o) = self.others.lock() else {
            return Vec::new();
        };
        o.retain(|_, (at, _)| at.elapsed() < NODE_SILENCE);
        o.values().flat_map(|(_, l)| l.iter().cloned()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, name: &str) -> User {
        User {
            id,
            username: name.into(),
            rank: "5k".parse().unwrap(),
            points: 50,
            guest: false,
            bot: false,
            rating: 1500.0,
            deviation: 350.0,
            role: Default::default(),
        }
    }

    #[test]
    fn other_nodes_players_count_until_their_node_falls_silent() {
        let online = Online::default();
        let (ann, bob) = (user(1, "ann"), user(2, "bob"));
        online.join(&ann);
        online.heard("n2", vec![(ann.clone(), 2), (bob.clone(), 1)]);
        let names = |o: &Online| o.list().into_iter().map(|u| u.username).collect::<Vec<_>>();
        assert_eq!(names(&online), ["ann", "bob"]);
        assert_eq!(online.connections(1), 3, "one here, two there");
        assert_eq!(online.local(), vec![(ann.clone(), 1)]);
        // Silence: the node's list is forgotten.
        if let Ok(mut o) = online.others.lock() {
            for (at, _) in o.values_mut() {
                *at -= NODE_SILENCE;
            }
        }
        assert_eq!(names(&online), ["ann"]);
        assert_eq!(online.connections(1), 1);
    }

    #[test]
    fn a_player_stays_online_until_the_last_connection_closes() {
        let online = Online::default();
        let (ann, bob) = (user(1, "ann"), user(2, "bob"));
        online.join(&bob);
        online.join(&ann);
        online.join(&ann);
        let names = |o: &Online| o.list().into_iter().map(|u| u.username).collect::<Vec<_>>();
        assert_eq!(names(&online), ["ann", "bob"]);
        online.leave(&ann);
        assert_eq!(names(&online), ["ann", "bob"]);
        online.leave(&ann);
        online.leave(&ann); // a stray close changes nothing
        assert_eq!(names(&online), ["bob"]);
        online.leave(&bob);
        assert!(online.list().is_empty());
    }
}
