//! The browser client: plain ES modules and CSS from `web/`, embedded in the binary so that
//! `tengen serve` needs nothing beside it. No build step: the files are served as written.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// Path, content type, contents.
const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../../../../web/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../../web/style.css"),
    ),
    (
        "/js/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/app.js"),
    ),
    (
        "/js/api.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/api.js"),
    ),
    (
        "/js/socket.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/socket.js"),
    ),
    (
        "/js/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/board.js"),
    ),
    (
        "/js/go.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/go.js"),
    ),
    (
        "/js/auth.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/auth.js"),
    ),
    (
        "/js/lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lobby.js"),
    ),
    (
        "/js/lobby-state.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lobby-state.js"),
    ),
    (
        "/js/game.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/game.js"),
    ),
    (
        "/js/game-state.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/game-state.js"),
    ),
    (
        "/js/format.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/format.js"),
    ),
    (
        "/js/review.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/review.js"),
    ),
    (
        "/js/review-state.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/review-state.js"),
    ),
    (
        "/js/tournaments.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/tournaments.js"),
    ),
    (
        "/js/user.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/user.js"),
    ),
    (
        "/js/moderation.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/moderation.js"),
    ),
    (
        "/js/messages.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/messages.js"),
    ),
    (
        "/js/learn.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/learn.js"),
    ),
    (
        "/js/puzzles.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/puzzles.js"),
    ),
    (
        "/js/rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/rules.js"),
    ),
    (
        "/js/html.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/html.js"),
    ),
    (
        "/js/dialog.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/dialog.js"),
    ),
    (
        "/js/i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/i18n.js"),
    ),
    (
        "/js/lang-en.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lang-en.js"),
    ),
    (
        "/js/lang-ko.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lang-ko.js"),
    ),
    (
        "/js/lang-ja.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lang-ja.js"),
    ),
    (
        "/js/lang-zh.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/js/lang-zh.js"),
    ),
];

/// Serves an embedded file, or 404.
pub async fn file(uri: Uri) -> Response {
    let path = if uri.path() == "/index.html" {
        "/"
    } else {
        uri.path()
    };
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A module added to `web/js` but not to `FILES` would load in no browser: the page's imports
    /// would 404. Every file on disk is embedded, and every embedded file is on disk as written.
    #[test]
    fn every_client_file_is_embedded_as_it_is_on_disk() {
        let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../web");
        let mut on_disk = vec!["/".to_string(), "/style.css".to_string()];
        for entry in std::fs::read_dir(web.join("js")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".js") {
                on_disk.push(format!("/js/{name}"));
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = FILES.iter().map(|(p, _, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
        for (path, _, body) in FILES {
            let file = if *path == "/" { "/index.html" } else { path };
            let text = std::fs::read_to_string(web.join(&file[1..])).unwrap();
            assert_eq!(&text, body, "{path}");
        }
    }

    #[tokio::test]
    async fn files_are_served_with_their_type_and_unknown_paths_are_404() {
        let r = file("/index.html".parse().unwrap()).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(
            r.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        let r = file("/js/board.js".parse().unwrap()).await;
        assert_eq!(
            r.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        let r = file("/js/../Cargo.toml".parse().unwrap()).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
    }
}
