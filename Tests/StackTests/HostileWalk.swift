import Foundation

/// Turns the merged OpenAPI document into hostile probes: for every operation a valid request built from its
/// schemas and the fixture, then one request per field and hostile value with everything else left valid.
struct HostileWalk {
    let document: [String: Any]
    let fixture: HostileFixture
    /// Today in the stack's clock (`yyyy-MM-dd`), for date fields.
    let today: String

    /// The probes, and the path parameters no fixture value is known for (`METHOD /path: {name}`).
    func probes() -> (probes: [HostileProbe], unmapped: [String]) {
        var probes: [HostileProbe] = []
        var unmapped: [String] = []
        for (template, method, operation, parameters) in operations() {
            var pathValues: [String: String] = [:]
            for name in Self.pathNames(template) {
                if let value = fixtureValue(name, in: template) {
                    pathValues[name] = value
                } else {
                    unmapped.append("\(method) \(template): {\(name)}")
                }
            }
            probes += self.probes(
                method: method, template: template, operation: operation, parameters: parameters,
                pathValues: pathValues)
        }
        return (probes, unmapped)
    }

    /// For every operation with a `cursor` parameter, one probe per cursor `cursors` gives for its operation id (a
    /// valid request but for the cursor); the operations it gives none for (`METHOD /path (operationId)`).
    func cursorProbes(_ cursors: (String) -> [(label: String, cursor: String)]?) -> (
        probes: [HostileProbe], unknown: [String]
    ) {
        var probes: [HostileProbe] = []
        var unknown: [String] = []
        for (template, method, operation, parameters) in operations()
        where parameters.contains(where: { $0["in"] as? String == "query" && $0["name"] as? String == "cursor" }) {
            let operationID = operation["operationId"] as? String ?? ""
            guard let values = cursors(operationID) else {
                unknown.append("\(method) \(template) (\(operationID))")
                continue
            }
            var pathValues: [String: String] = [:]
            for name in Self.pathNames(template) { pathValues[name] = fixtureValue(name, in: template) }
            probes += self.probes(
                method: method, template: template, operation: operation, parameters: parameters,
                pathValues: pathValues, onlyCursors: values)
        }
        return (probes, unknown)
    }

    typealias Operation = (template: String, method: String, operation: [String: Any], parameters: [[String: Any]])

    /// Every operation of the document in a stable order, its method in capitals and its parameters resolved.
    private func operations() -> [Operation] {
        var operations: [Operation] = []
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        for (template, item) in paths.sorted(by: { $0.key < $1.key }) {
            let shared = item["parameters"] as? [Any] ?? []
            for (method, operation) in item.sorted(by: { $0.key < $1.key }) {
                guard let operation = operation as? [String: Any], method != "parameters" else { continue }
                let parameters = (shared + (operation["parameters"] as? [Any] ?? [])).compactMap(resolve)
                operations.append((template, method.uppercased(), operation, parameters))
            }
        }
        return operations
    }

    private func probes(
        method: String, template: String, operation: [String: Any], parameters: [[String: Any]],
        pathValues: [String: String], onlyCursors cursors: [(label: String, cursor: String)]? = nil
    ) -> [HostileProbe] {
        let query = parameters.filter { $0["in"] as? String == "query" }
        let headers = parameters.filter { $0["in"] as? String == "header" }
        let baseQuery = query.compactMap { parameter -> (String, String)? in
            let name = parameter["name"] as? String ?? ""
            guard parameter["required"] as? Bool == true || Self.queryNamesAlwaysSent.contains(name) else { return nil }
            return (name, baseValue(schema(of: parameter), name: name).queryText)
        }
        let baseHeaders = headers.compactMap { parameter -> (String, String)? in
            let name = parameter["name"] as? String ?? ""
            return name == "Geo-Position" ? (name, "48.85;2.34") : nil
        }
        let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
        let bodySchema = ((content["application/json"] as? [String: Any])?["schema"] as? [String: Any]).map(resolved)
        let imageType = content.keys.first { $0.hasPrefix("image/") }.map { $0 == "image/*" ? "image/png" : $0 }
        let isAuth = template.hasPrefix("/v1/auth") || (template.hasPrefix("/v1/users/me") && method != "GET")
        let endsSessions = ["/logout", "/logout-all", "/password/change", "/password/reset", "/sessions/{id}"]
            .contains { template.hasSuffix($0) }
        let phase =
            endsSessions
            ? 4 : isAuth ? 3 : method == "GET" ? 0 : method == "DELETE" || template.hasSuffix("/leave") ? 2 : 1
        let stream = template.hasSuffix("/stream")

        func probe(
            field: String, value: String, path: [String: String] = pathValues, query extra: (String, String)? = nil,
            header: (String, String)? = nil, body: HostileJSON? = nil
        ) -> HostileProbe {
            var target = template
            for (name, value) in path {
                target = target.replacingOccurrences(of: "{\(name)}", with: Self.encoded(value))
            }
            var items = baseQuery.filter { $0.0 != extra?.0 }
            if let extra { items.append(extra) }
            if !items.isEmpty { target += "?" + items.map { "\($0.0)=\(Self.encoded($0.1))" }.joined(separator: "&") }
            var sent = baseHeaders.filter { $0.0 != header?.0 }
            if let header { sent.append(header) }
            var data: Data?
            // A head of 100 kB is refused before any body is read, and the connection closed: sent without a body,
            // the client reads that refusal instead of failing to write a body nobody reads.
            let oversizedHead =
                (path.values.map(\.utf8.count).max() ?? 0) > 60_000
                || (extra?.1.utf8.count ?? 0) > 60_000 || (header?.1.utf8.count ?? 0) > 60_000
            if oversizedHead {
                data = nil
            } else if let json = body ?? bodySchema.map({ baseValue($0, name: "") }) {
                data = Data(json.text.utf8)
                sent.append(("Content-Type", "application/json"))
            } else if let imageType {
                data = GeoPhotoTests.png
                sent.append(("Content-Type", imageType))
            }
            return HostileProbe(
                method: method, template: template, target: target, headers: sent, body: data, field: field,
                value: value, phase: phase, asZed: isAuth, isStream: stream)
        }

        if let cursors {
            return cursors.map { probe(field: "query cursor", value: $0.label, query: ("cursor", $0.cursor)) }
        }
        var out = [probe(field: "-", value: "valid")]
        for name in pathValues.keys.sorted() {
            for (label, value) in HostileValues.strings {
                out.append(probe(field: "path \(name)", value: label, path: pathValues.merging([name: value]) { $1 }))
            }
        }
        for parameter in query {
            let name = parameter["name"] as? String ?? ""
            for (label, value) in HostileValues.strings {
                out.append(probe(field: "query \(name)", value: label, query: (name, value)))
            }
        }
        for parameter in headers {
            let name = parameter["name"] as? String ?? ""
            // NUL, CR and LF cannot travel in a header field (RFC 9110 5.5); the client refuses to send them.
            for (label, value) in HostileValues.strings
            where !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                out.append(probe(field: "header \(name)", value: label, header: (name, value)))
            }
        }
        if let bodySchema {
            for mutation in mutations(bodySchema, name: "", at: "body", depth: 0) {
                out.append(probe(field: mutation.field, value: mutation.label, body: mutation.value))
            }
        }
        return out
    }

    // MARK: Bodies

    /// Every way to make one leaf of `schema` hostile, each as the whole value at this level.
    private func mutations(_ schema: [String: Any], name: String, at field: String, depth: Int)
        -> [(field: String, label: String, value: HostileJSON)]
    {
        let schema = resolved(schema)
        guard depth < 6 else { return [] }
        if let properties = schema["properties"] as? [String: Any] {
            let names = properties.keys.sorted()
            let members = names.map { ($0, baseValue(properties[$0] as? [String: Any] ?? [:], name: $0)) }
            // A sibling enum (a split's `kind`, a schedule's) decides which fields count: try each choice.
            var bases = [members]
            for (index, key) in names.enumerated() {
                let values = (resolved(properties[key] as? [String: Any] ?? [:])["enum"] as? [Any] ?? []).dropFirst()
                for value in values.prefix(5) {
                    var variant = members
                    variant[index].1 = .string("\(value)")
                    bases.append(variant)
                }
            }
            var out: [(String, String, HostileJSON)] = []
            for (index, key) in names.enumerated() {
                let child = properties[key] as? [String: Any] ?? [:]
                for mutation in mutations(child, name: key, at: "\(field).\(key)", depth: depth + 1) {
                    for base in bases {
                        var object = base
                        object[index].1 = mutation.value
                        out.append((mutation.field, mutation.label, .object(object)))
                    }
                }
            }
            return out
        }
        if let values = schema["additionalProperties"] as? [String: Any] {
            return mutations(values, name: name, at: "\(field).<ann>", depth: depth + 1).map {
                ($0.field, $0.label, .object([(fixture.ann.id, $0.value)]))
            }
        }
        switch schema["type"] as? String {
        case "array":
            return mutations(schema["items"] as? [String: Any] ?? [:], name: name, at: "\(field)[0]", depth: depth + 1)
                .map { ($0.field, $0.label, .array([$0.value])) }
        case "integer", "number": return HostileValues.numbers.map { (field, $0.0, $0.1) }
        case "boolean": return HostileValues.booleans.map { (field, $0.0, $0.1) }
        case "string": return HostileValues.strings.map { (field, $0.0, .string($0.1)) }
        default: return []
        }
    }

    /// A valid-looking value for a schema: examples and enums first, then what the field's name says.
    func baseValue(_ schema: [String: Any], name: String) -> HostileJSON {
        let schema = resolved(schema)
        if let properties = schema["properties"] as? [String: Any] {
            return .object(
                properties.keys.sorted().map { ($0, baseValue(properties[$0] as? [String: Any] ?? [:], name: $0)) })
        }
        if let values = schema["additionalProperties"] as? [String: Any] {
            return .object([(fixture.ann.id, baseValue(values, name: name))])
        }
        if let first = (schema["enum"] as? [Any])?.first { return .string("\(first)") }
        let lower = name.lowercased()
        switch schema["type"] as? String {
        case "array": return .array([baseValue(schema["items"] as? [String: Any] ?? [:], name: name)])
        case "boolean": return .bool(false)
        case "integer":
            if let id = fixture.pathValues[name].flatMap({ Int64($0) }) { return .int(id) }
            return .int((schema["minimum"] as? Int).map(Int64.init) ?? 1)
        case "number":
            if lower.contains("latitude") { return .double(48.85) }
            if lower.contains("longitude") { return .double(2.34) }
            return .double((schema["minimum"] as? Double) ?? 1)
        default:
            if let example = schema["example"] { return .string("\(example)") }
            switch schema["format"] as? String {
            case "date": return .string(today)
            case "date-time": return .string(today + "T12:00:00Z")
            default: break
            }
            if let id = fixture.pathValues[name] { return .string(id) }
            let byName: [String: String] = [
                "currency": "EUR", "username": fixture.bob.username, "identifier": fixture.zed.username,
                "email": fixture.zed.email, "password": fixture.zed.password,
                "currentpassword": fixture.zed.password, "color": "#FF8800", "timezone": "Europe/Paris",
                "bbox": "2.2,48.8,2.5,48.9", "to": fixture.bob.id, "payerid": fixture.bob.id,
            ]
            if let value = byName[lower] { return .string(value) }
            if lower.hasSuffix("ids") || lower.hasSuffix("userid") || lower == "among" {
                return .string(fixture.bob.id)
            }
            return .string("hello")
        }
    }

    // MARK: Document

    /// Query parameters a useful request carries even when optional (visitors need a place or a point).
    static let queryNamesAlwaysSent: Set<String> = ["latitude", "longitude", "bbox", "query"]

    private func fixtureValue(_ name: String, in template: String) -> String? {
        let segments = template.split(separator: "/")
        if let index = segments.firstIndex(of: "{\(name)}"), index > 0,
            let value = fixture.pathValues["\(segments[index - 1])/{\(name)}"]
        {
            return value
        }
        return fixture.pathValues[name]
    }

    private func resolve(_ parameter: Any) -> [String: Any]? {
        guard let parameter = parameter as? [String: Any] else { return nil }
        guard let ref = parameter["$ref"] as? String else { return parameter }
        return component(ref)
    }

    private func resolved(_ schema: [String: Any]) -> [String: Any] {
        if let ref = schema["$ref"] as? String { return resolved(component(ref) ?? [:]) }
        if let first = (schema["oneOf"] ?? schema["anyOf"]) as? [[String: Any]], let choice = first.first {
            return resolved(choice)
        }
        if let parts = schema["allOf"] as? [[String: Any]] {
            var properties: [String: Any] = [:]
            for part in parts { properties.merge(resolved(part)["properties"] as? [String: Any] ?? [:]) { $1 } }
            return ["type": "object", "properties": properties]
        }
        return schema
    }

    private func component(_ ref: String) -> [String: Any]? {
        var node: Any? = document
        for key in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
        return node as? [String: Any]
    }

    private func schema(of parameter: [String: Any]) -> [String: Any] {
        parameter["schema"] as? [String: Any] ?? [:]
    }

    static func pathNames(_ template: String) -> [String] {
        template.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map {
            String($0.dropFirst().dropLast())
        }
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986 2.3).
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension HostileJSON {
    /// The value as a query parameter carries it.
    var queryText: String {
        switch self {
        case .string(let value): value
        case .array(let values): values.first?.queryText ?? ""
        default: text
        }
    }
}
