//! Who is online: accounts with at least one open WebSocket, for the lobby.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::accounts::User;

/// The accounts connected now, with their number of open connections.
#[derive(Clone, Default)]
pub struct Online {
    users: Arc<Mutex<HashMap<i64, (User, u32)>>>,
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

    /// Open connections of the account `id`.
    pub fn connections(&self, id: i64) -> u32 {
        self.users
            .lock()
            .map(|m| m.get(&id).map_or(0, |(_, n)| *n))
            .unwrap_or(0)
    }

    /// Everyone online, by name.
    pub fn list(&self) -> Vec<User> {
        let mut v: Vec<User> = self
            .users
            .lock()
            .map(|m| m.values().map(|(u, _)| u.clone()).collect())
            .unwrap_or_default();
        v.sort_by(|a, b| a.username.cmp(&b.username));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, name: &str) -> User {
        User {
            id,
            username: name.into(),
            rank: "5k".into(),
            points: 50,
            guest: false,
            bot: false,
        }
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
