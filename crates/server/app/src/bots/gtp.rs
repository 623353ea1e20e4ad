//! The controller side of GTP: start an engine as a child process, send it commands with a
//! timeout, and notice when it dies. Used by the server's GTP bots and by `tengen match`.
//!
//! A reader thread turns the engine's output into whole responses on a channel, so a command can
//! wait with a timeout and a dead or hung engine becomes a typed error instead of a blocked
//! caller. [`Controller::restart`] starts the same command again.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use tengen_gtp::{response, Command, Response};

/// Why a command got no response.
#[derive(Debug, thiserror::Error)]
pub enum ControllerError {
    /// The engine could not be started.
    #[error("cannot start engine {command:?}: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The error.
        source: std::io::Error,
    },
    /// An empty command line.
    #[error("empty engine command")]
    EmptyCommand,
    /// The engine exited or closed its output.
    #[error("the engine died")]
    Died,
    /// No response within the timeout; the engine was killed.
    #[error("the engine did not answer {0:?} in time")]
    Timeout(String),
    /// The engine answered something that is not GTP.
    #[error("the engine's response is not GTP: {0}")]
    Garbled(String),
    /// The engine refused a command it must accept to play (a board size, say).
    #[error("the engine refused {0}")]
    Refused(String),
}

/// A running GTP engine.
pub struct Controller {
    command_line: String,
    child: Child,
    stdin: ChildStdin,
    responses: Receiver<Vec<String>>,
    next_id: u32,
}

/// Splits a command line into words, honouring single and double quotes.
pub fn split_command_line(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                has_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if has_word || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    has_word = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if has_word || !cur.is_empty() {
        words.push(cur);
    }
    words
}

impl Controller {
    /// Starts `command_line` (split like a shell would, without expansions).
    pub fn spawn(command_line: &str) -> Result<Controller, ControllerError> {
        let words = split_command_line(command_line);
        let (program, args) = words.split_first().ok_or(ControllerError::EmptyCommand)?;
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ControllerError::Spawn {
                command: command_line.to_string(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ControllerError::Died);
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let mut current: Vec<String> = Vec::new();
            while let Some(Ok(line)) = lines.next() {
                let line = line.trim_end_matches('\r').to_string();
                if line.trim().is_empty() {
                    if !current.is_empty() && tx.send(std::mem::take(&mut current)).is_err() {
                        return;
                    }
                } else {
                    current.push(line);
                }
            }
            // End of output: dropping the sender tells the controller the engine is gone.
        });
        Ok(Controller {
            command_line: command_line.to_string(),
            child,
            stdin,
            responses: rx,
            next_id: 1,
        })
    }

    /// Sends `name args...` and waits up to `timeout` for the response.
    pub fn send(&mut self, line: &str, timeout: Duration) -> Result<Response, ControllerError> {
        let id = self.next_id;
        self.next_id += 1;
        let cmd = match Command::parse(line) {
            Ok(Some(c)) => Command { id: Some(id), ..c },
            _ => return Err(ControllerError::Garbled(format!("bad command {line:?}"))),
        };
        if writeln!(self.stdin, "{cmd}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(ControllerError::Died);
        }
        match self.responses.recv_timeout(timeout) {
            Ok(lines) => {
                let (got, r) =
                    response::parse(&lines).map_err(|e| ControllerError::Garbled(e.to_string()))?;
                if got.is_some_and(|g| g != id) {
                    return Err(ControllerError::Garbled(format!(
                        "response id {got:?} to command {id}"
                    )));
                }
                Ok(r)
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                Err(ControllerError::Timeout(line.to_string()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(ControllerError::Died),
        }
    }

    /// Starts the same engine again after it died or hung.
    pub fn restart(&mut self) -> Result<(), ControllerError> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Controller::spawn(&self.command_line)?;
        Ok(())
    }
}

impl Drop for Controller {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to exit cleanly, then make sure.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line("gnugo --mode gtp"),
            ["gnugo", "--mode", "gtp"]
        );
        assert_eq!(
            split_command_line("a 'b c' \"d\" ''"),
            ["a", "b c", "d", ""]
        );
        assert!(split_command_line("   ").is_empty());
    }
}

#[cfg(test)]
mod engine_failures {
    use super::*;

    const T: Duration = Duration::from_millis(2000);

    #[test]
    fn a_working_engine_answers() {
        let mut c =
            Controller::spawn("sh -c 'while read l; do echo \"= ok\"; echo; done'").unwrap();
        assert_eq!(c.send("name", T).unwrap(), Response::success("ok"));
        assert_eq!(c.send("version", T).unwrap(), Response::success("ok"));
    }

    #[test]
    fn a_dead_engine_is_an_error_and_can_be_restarted() {
        let mut c = Controller::spawn("sh -c 'read l; exit 0'").unwrap();
        assert!(matches!(c.send("name", T), Err(ControllerError::Died)));
        c.restart().unwrap();
        assert!(matches!(c.send("name", T), Err(ControllerError::Died)));
        assert!(matches!(
            Controller::spawn("/no/such/engine"),
            Err(ControllerError::Spawn { .. })
        ));
        assert!(matches!(
            Controller::spawn("  "),
            Err(ControllerError::EmptyCommand)
        ));
    }

    #[test]
    fn garbage_and_silence_are_errors() {
        let mut c = Controller::spawn("sh -c 'read l; echo hello; echo'").unwrap();
        assert!(matches!(
            c.send("name", T),
            Err(ControllerError::Garbled(_))
        ));
        // An engine that never answers: the timeout fires and the engine is killed.
        let mut c = Controller::spawn("sh -c 'read l; exec sleep 30'").unwrap();
        assert!(matches!(
            c.send("name", Duration::from_millis(100)),
            Err(ControllerError::Timeout(_))
        ));
    }
}
