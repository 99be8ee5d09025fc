import FZSystem

/// The AWS CLI's and SDKs' shared files, read as they read them: the credentials file
/// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`; sections `[name]`) and the config
/// file (`AWS_CONFIG_FILE`, else `~/.aws/config`; sections `[default]` and `[profile name]`),
/// INI with `#`/`;` comments and nested settings (`s3 =` then indented `addressing_style = path`,
/// kept as `s3.addressing_style`). The profile is `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`), else
/// `default`; the credentials file wins over the config file for a setting in both.
public struct SharedConfig: Sendable, Equatable {
    public let profile: String
    /// The profile's settings, both files merged.
    public let settings: [String: String]
    /// Where each setting came from, for messages ("profile prod in /home/me/.aws/credentials").
    public let origin: [String: String]
    /// True when the profile was asked for (AWS_PROFILE) but is in neither file.
    public let missing: Bool

    /// Files larger than this are no AWS config: refused rather than read.
    static let maximumBytes = 1 << 20

    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? ""
        let profile = environment["AWS_PROFILE"] ?? environment["AWS_DEFAULT_PROFILE"] ?? "default"
        let credentialsPath = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? "\(home)/.aws/credentials"
        let configPath = environment["AWS_CONFIG_FILE"] ?? "\(home)/.aws/config"
        var settings: [String: String] = [:]
        var origin: [String: String] = [:]
        var found = false
        let config = Self.parse(Self.read(configPath) ?? "")
        if let section = config[profile == "default" ? "default" : "profile \(profile)"] ?? config["profile \(profile)"]
        {
            found = true
            for (key, value) in section {
                settings[key] = value
                origin[key] = "profile \(profile) in \(configPath)"
            }
        }
        if let section = Self.parse(Self.read(credentialsPath) ?? "")[profile] {
            found = true
            for (key, value) in section {
                settings[key] = value
                origin[key] = "profile \(profile) in \(credentialsPath)"
            }
        }
        self.profile = profile
        self.settings = settings
        self.origin = origin
        missing = !found && (environment["AWS_PROFILE"] != nil || environment["AWS_DEFAULT_PROFILE"] != nil)
    }

    public subscript(_ key: String) -> String? { settings[key].flatMap { $0.isEmpty ? nil : $0 } }

    /// Sections of INI text: name → settings; nested settings as `parent.child`.
    static func parse(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        var parent: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let indented = raw.first == " " || raw.first == "\t"
            let line = raw.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = line.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(
                    separator: " ")
                parent = nil
                if let current, sections[current] == nil { sections[current] = [:] }
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks.lowercased()
            var value = line[line.index(after: equals)...].trimmingBlanks
            // An inline comment needs a blank before it, as botocore's parser reads them.
            if let hash = value.firstRange(of: " #") ?? value.firstRange(of: " ;") {
                value = value[..<hash.lowerBound].trimmingBlanks
            }
            if indented, let parent {
                sections[current]?["\(parent).\(key)"] = String(value)
            } else {
                sections[current]?[key] = String(value)
                parent = value.isEmpty ? key : nil
            }
        }
        return sections
    }

    /// A small text file's contents, or nil when it cannot be read or is too large.
    static func read(_ path: String) -> String? {
        guard case .success(let file) = CFile.open(readingFrom: path) else { return nil }
        defer { _ = file.close() }
        return file.readAll(limit: maximumBytes).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let text = self[...]
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else {
            return Substring("")
        }
        return Substring(text[first...last])
    }
}
