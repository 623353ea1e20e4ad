//! The network's GTP commands, in KataGo's dialect so that its tools and its outputs can be
//! compared line for line: `kata-raw-nn [color] SYMMETRY|all` (the raw evaluation, printed as
//! KataGo's `rawNN` prints it), `kata-set-rules NAME` (KataGo's rule names, as KaTrain sends
//! them) and `kata-set-param humanSLProfile NAME` (who a human-style net imagines playing).

use std::fmt::Write as _;
use std::sync::Arc;

use tengen_ai::nn::forward::POLICY_OPTIMISM;
use tengen_ai::nn::human::HumanProfile;
use tengen_ai::nn::{Evaluation, Evaluator, History, KataRules, Model};
use tengen_gtp::{args, Response};
use tengen_rules::Game;

/// The network a session evaluates with: a player's own (`--model`), else the built-in one,
/// read on first use so that sessions that never ask pay nothing.
#[derive(Default)]
pub struct Net {
    evaluator: Option<Arc<Evaluator>>,
    /// The human-style net's profile by name, as set (`kata-get-param humanSLProfile`).
    human_profile: Option<String>,
}

impl Net {
    /// A session with the model at `path`, read now so that a bad file fails at start.
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<Net> {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("cannot read model {}: {e}", path.display()))?;
        let model = Model::read(&bytes)
            .map_err(|e| anyhow::anyhow!("cannot use model {}: {e}", path.display()))?;
        Ok(Net {
            evaluator: Some(Arc::new(Evaluator::new(model))),
            human_profile: None,
        })
    }

    /// The evaluator: the session's own model, else the process's built-in one
    /// ([`tengen_ai::nn::builtin`]).
    pub fn evaluator(&mut self) -> Result<Arc<Evaluator>, Response> {
        if self.evaluator.is_none() {
            self.evaluator = tengen_ai::nn::builtin();
        }
        self.evaluator
            .clone()
            .ok_or_else(|| Response::failure("the built-in network cannot be read"))
    }
}

/// `kata-raw-nn [color] SYMMETRY|all [optimism]`: the position evaluated under one symmetry,
/// or under each of the 8 in turn for `all` (as KataGo prints them). A colour other than the
/// player to move evaluates the bare position with that colour to move (KataGo clears the
/// history then too). A policy optimism is accepted where it is the one Tengen applies: 0 for
/// nets without an optimistic policy, else KataGo's GTP default 0.2
/// ([`tengen_ai::nn::forward::POLICY_OPTIMISM`]).
pub fn raw_nn(net: &mut Net, game: &Game, rules: Option<KataRules>, a: &[String]) -> Response {
    let mut rest = a;
    let mut color = game.to_move();
    if let Some(c) = rest.first().and_then(|s| args::color(s).ok()) {
        color = c;
        rest = &rest[1..];
    }
    let symmetries: Vec<u8> = match rest.first().map(|s| s.to_ascii_lowercase()) {
        Some(s) if s == "all" => (0..8).collect(),
        Some(s) => match s.parse::<u8>() {
            Ok(n) if n < 8 => vec![n],
            _ => return Response::failure("expected a symmetry 'all' or index [0-7]"),
        },
        None => return Response::failure("expected a symmetry 'all' or index [0-7]"),
    };
    let eval = match net.evaluator() {
        Ok(e) => e,
        Err(r) => return r,
    };
    // The one optimism the evaluator applies: none without an optimistic policy channel, nor
    // on a human-style net (KataGo's rule).
    let model = eval.model();
    let optimism = match model.policy.channels {
        1 => 0.0,
        _ if model.meta_encoder.is_some() => 0.0,
        _ => POLICY_OPTIMISM,
    };
    let optimism_ok = match rest {
        [_] => true,
        [_, o] => o.parse::<f32>().is_ok_and(|o| (o - optimism).abs() < 1e-6),
        _ => false,
    };
    if !optimism_ok {
        return Response::failure(format!(
            "expected a symmetry and at most a policy optimism of {optimism}"
        ));
    }
    let Some(rules) = rules else {
        return Response::failure("the network does not play these rules");
    };
    let history = if color == game.to_move() {
        History::new(game, rules)
    } else {
        match Game::from_board(game.board().clone(), color, *game.rules()) {
            Ok(g) => History::new(&g, rules),
            Err(_) => return Response::failure("cannot evaluate this position"),
        }
    };
    let items: Vec<(&History, u8)> = symmetries.iter().map(|&s| (&history, s)).collect();
    match eval.evaluate_batch(&items) {
        Ok(evals) => {
            let mut out = String::new();
            for (s, e) in symmetries.iter().zip(&evals) {
                write_raw(&mut out, *s, e);
            }
            Response::success(out.trim())
        }
        Err(e) => Response::failure(e.to_string()),
    }
}

/// `kata-set-param humanSLProfile NAME`: who a human-style net imagines playing, by KataGo's
/// names (`rank_5k`, `rank_1k_3d`, `preaz_2d`, `proyear_1990`; `""` or `_` for none). KataGo's
/// other parameters are settings of its own search, which Tengen's does not take.
pub fn set_param(net: &mut Net, a: &[String]) -> Response {
    let [key, value] = a else {
        return Response::failure("expected a parameter and its value");
    };
    if key != "humanSLProfile" {
        return Response::failure(format!("unknown or unsupported parameter {key}"));
    }
    let profile = match value.as_str() {
        "" | "_" | "\"\"" => None,
        name => match HumanProfile::parse(name) {
            Ok(p) => Some(p),
            Err(e) => return Response::failure(e.to_string()),
        },
    };
    match net.evaluator() {
        Ok(eval) => {
            eval.set_human_profile(profile);
            net.human_profile = profile.map(|_| value.clone());
            Response::success("")
        }
        Err(r) => r,
    }
}

/// `kata-get-param humanSLProfile`: the profile set (empty for none).
pub fn get_param(net: &Net, a: &[String]) -> Response {
    match a {
        [key] if key == "humanSLProfile" => {
            Response::success(net.human_profile.clone().unwrap_or_default())
        }
        _ => Response::failure("expected humanSLProfile"),
    }
}

/// One evaluation in KataGo's `kata-raw-nn` layout.
fn write_raw(out: &mut String, symmetry: u8, e: &Evaluation) {
    let _ = writeln!(out, "symmetry {symmetry}");
    let _ = writeln!(out, "whiteWin {:.6}", e.white_win);
    let _ = writeln!(out, "whiteLoss {:.6}", e.white_loss);
    let _ = writeln!(out, "noResult {:.6}", e.no_result);
    let _ = writeln!(out, "whiteLead {:.3}", e.white_lead);
    let _ = writeln!(out, "whiteScoreSelfplay {:.3}", e.white_score);
    let _ = writeln!(out, "whiteScoreSelfplaySq {:.3}", e.white_score_sq);
    let _ = writeln!(out, "varTimeLeft {:.3}", e.var_time_left);
    let _ = writeln!(
        out,
        "shorttermWinlossError {:.3}",
        e.shortterm_winloss_error
    );
    let _ = writeln!(out, "shorttermScoreError {:.3}", e.shortterm_score_error);
    out.push_str("policy\n");
    for row in e.policy.chunks(e.size) {
        for &p in row {
            if p < 0.0 {
                out.push_str("    NAN ");
            } else {
                let _ = write!(out, "{p:8.6} ");
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "policyPass {:8.6} ", e.pass);
    out.push_str("whiteOwnership\n");
    for row in e.white_ownership.chunks(e.size) {
        for &o in row {
            let _ = write!(out, "{o:9.7} ");
        }
        out.push('\n');
    }
    out.push('\n');
}

/// `kata-set-rules NAME`: KataGo's rules by name. The game is replayed under the nearest
/// Tengen rules (ko, suicide, counting), so moves are refereed as KataGo would, and the net is
/// told exactly the named rules. Komi is kept.
pub fn set_rules(game: &Game, a: &[String]) -> Result<(KataRules, Game), Response> {
    if a.is_empty() {
        return Err(Response::failure("syntax error"));
    }
    let rules = KataRules::parse(&a.join(" ")).map_err(|e| Response::failure(e.to_string()))?;
    let g = game
        .with_rules(rules.apply_to(game.rules()))
        .map_err(|_| Response::failure("the game so far is not legal under these rules"))?;
    Ok((rules, g))
}
