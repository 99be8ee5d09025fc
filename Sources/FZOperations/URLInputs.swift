import FZHTTP

/// URL inputs (issue 52) as the command line sees them: the HTTP reader registered at start,
/// and what a URL argument is and shows as (the readers themselves are below, in FZHTTP).
package enum URLInputs {
    /// Registers the http(s) opener (once, before any input is read).
    package static func register() { HTTPSource.register() }
    /// Whether an argument is an http:// or https:// URL.
    package static func isURL(_ name: String) -> Bool { HTTPSource.isURL(name) }
    /// A URL as messages show it: without userinfo.
    package static func displayName(_ url: String) -> String { HTTPSource.displayName(url) }
}
