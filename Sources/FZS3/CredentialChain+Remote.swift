/// The chain's sources that ask a server: STS for a web identity, the container endpoint, IMDSv2.
/// None of their answers is echoed in a message: a failure says which source and what status.
extension CredentialChain {
    func fromWebIdentity(now: Int64) throws(S3Failure) -> S3Credentials? {
        let file = env("AWS_WEB_IDENTITY_TOKEN_FILE") ?? config["web_identity_token_file"]
        let role = file == nil ? nil : env("AWS_ROLE_ARN") ?? config["role_arn"]
        guard let file, let role else { return nil }
        guard let token = SharedConfig.read(file)?.trimmingBlanks.filter({ $0 != "\n" && $0 != "\r" }), !token.isEmpty
        else {
            throw S3Failure(
                .credentials, url: "s3://", "the web identity token file \(file) cannot be read or is empty")
        }
        let session = env("AWS_ROLE_SESSION_NAME") ?? config["role_session_name"] ?? "forcezoom-\(now)"
        let endpoint =
            env("AWS_ENDPOINT_URL_STS") ?? env("AWS_ENDPOINT_URL") ?? config["sts.endpoint_url"]
            ?? "https://sts.\(region).amazonaws.com"
        // A POST, so the token travels in the body and never in a URL a log could keep.
        let form = S3Encoding.query([
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", role),
            ("RoleSessionName", session), ("WebIdentityToken", String(token)),
        ])
        let url = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        let response = try fetch(
            S3HTTPRequest(
                method: "POST", url: url,
                headers: ["content-type": "application/x-www-form-urlencoded", "accept": "application/xml"],
                body: .bytes(Array(form.utf8)), maxBodyBytes: 1 << 20, timeoutSeconds: 10),
            source: "STS AssumeRoleWithWebIdentity at \(endpoint)")
        let xml = S3XML(response.body)
        guard let credentials = xml.blocks("Credentials").first, let id = credentials.value("AccessKeyId"),
            let secret = credentials.value("SecretAccessKey")
        else {
            let code = xml.value("Code").map { " (\($0))" } ?? ""
            throw S3Failure(
                .credentials, url: endpoint, status: response.status,
                "STS refused the web identity token of \(file) for \(role)\(code): check the role's trust policy")
        }
        return S3Credentials(
            accessKeyID: id, secretAccessKey: secret, sessionToken: credentials.value("SessionToken"),
            expiration: credentials.value("Expiration").flatMap(AmzDate.parseISO8601),
            source: "web identity \(file) as \(role)")
    }

    func fromContainer() throws(S3Failure) -> S3Credentials? {
        let url: String
        if let relative = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
            url = "http://169.254.170.2" + (relative.hasPrefix("/") ? relative : "/" + relative)
        } else if let full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
            guard Self.allowedContainerURL(full) else {
                throw S3Failure(
                    .credentials, url: full,
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, loopback or the ECS/EKS link-local address")
            }
            url = full
        } else {
            return nil
        }
        var headers = ["accept": "application/json"]
        if let file = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
            guard let token = SharedConfig.read(file)?.trimmingBlanks.filter({ $0 != "\n" && $0 != "\r" }),
                !token.isEmpty
            else {
                throw S3Failure(.credentials, url: url, "the container authorization token file \(file) cannot be read")
            }
            headers["authorization"] = String(token)
        } else if let token = env("AWS_CONTAINER_AUTHORIZATION_TOKEN") {
            headers["authorization"] = token
        }
        let response = try fetch(
            S3HTTPRequest(method: "GET", url: url, headers: headers, maxBodyBytes: 1 << 16, timeoutSeconds: 5),
            source: "the container credentials endpoint \(url)")
        return try Self.credentials(json: response.body, source: "the container endpoint", url: url)
    }

    func fromInstanceMetadata() throws(S3Failure) -> S3Credentials? {
        var base = env("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? "http://169.254.169.254"
        while base.hasSuffix("/") { base.removeLast() }
        // Off EC2 nothing answers: one try of one second, then the chain ends.
        guard
            let token = try? transport.send(
                S3HTTPRequest(
                    method: "PUT", url: base + "/latest/api/token",
                    headers: ["x-aws-ec2-metadata-token-ttl-seconds": "21600"],
                    maxBodyBytes: 4096, timeoutSeconds: 1)), token.status == 200
        else { return nil }
        let session = String(decoding: token.body, as: UTF8.self)
        let headers = ["x-aws-ec2-metadata-token": session]
        let listing = base + "/latest/meta-data/iam/security-credentials/"
        let roles = try fetch(
            S3HTTPRequest(method: "GET", url: listing, headers: headers, maxBodyBytes: 4096, timeoutSeconds: 2),
            source: "EC2 instance metadata (no IAM role attached to the instance?)")
        guard let role = String(decoding: roles.body, as: UTF8.self).split(separator: "\n").first?.trimmingBlanks,
            !role.isEmpty, !role.contains("/")
        else {
            throw S3Failure(
                .credentials, url: listing, "EC2 instance metadata names no IAM role: attach an instance profile")
        }
        let response = try fetch(
            S3HTTPRequest(
                method: "GET", url: listing + S3Encoding.encode(String(role), keepSlash: false), headers: headers,
                maxBodyBytes: 1 << 16, timeoutSeconds: 2), source: "EC2 instance metadata")
        return try Self.credentials(json: response.body, source: "EC2 instance role \(role)", url: listing)
    }

    /// One request of the chain, whose failure names the source and its status only.
    func fetch(_ request: S3HTTPRequest, source: String) throws(S3Failure) -> S3HTTPResponse {
        let response: S3HTTPResponse
        do {
            response = try transport.send(request)
        } catch let error as S3TransportFailure {
            throw S3Failure(
                error.kind == .timedOut || error.kind == .connection ? .unavailable : .credentials, url: request.url,
                "no credentials from \(source): \(error.message)")
        } catch {
            throw S3Failure(.credentials, url: request.url, "no credentials from \(source)")
        }
        guard response.status == 200 else {
            // STS's error code (InvalidIdentityToken, AccessDenied...) names the cause, never the token.
            let code = S3XML(response.body).value("Code")
            throw S3Failure(
                response.status >= 500 ? .unavailable : .credentials, url: request.url, code: code,
                status: response.status, "no credentials from \(source)")
        }
        return response
    }

    /// `{"AccessKeyId", "SecretAccessKey", "Token", "Expiration"}` (the container endpoint's and IMDS's).
    static func credentials(json: [UInt8], source: String, url: String) throws(S3Failure) -> S3Credentials {
        guard let members = FlatJSON.members(json), let id = members["AccessKeyId"],
            let secret = members["SecretAccessKey"]
        else { throw S3Failure(.credentials, url: url, "\(source) answered without AccessKeyId and SecretAccessKey") }
        return S3Credentials(
            accessKeyID: id, secretAccessKey: secret, sessionToken: members["Token"],
            expiration: members["Expiration"].flatMap(AmzDate.parseISO8601), source: source)
    }

    /// The SDKs' rule for a full URI: https anywhere, or http to loopback or the ECS (169.254.170.2)
    /// and EKS Pod Identity (169.254.170.23, fd00:ec2::23) agents.
    static func allowedContainerURL(_ url: String) -> Bool {
        if url.hasPrefix("https://") { return true }
        guard url.hasPrefix("http://") else { return false }
        let authority = url.dropFirst(7).prefix { $0 != "/" }
        let host =
            authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }.dropFirst()) : String(authority.prefix { $0 != ":" })
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "169.254.170.2"
            || host == "169.254.170.23" || host == "fd00:ec2::23"
    }
}
