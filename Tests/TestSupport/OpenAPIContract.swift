import Foundation
import GatewayService

/// The platform's OpenAPI document as the gateway publishes it (every service's paths and components, merged), and
/// the check of one answer against the operation it answers: the status is documented, the content type is one the
/// operation names, and a JSON body matches the schema exactly (required fields, types and nullability, formats,
/// enums, bounds, and no property the schema does not describe).
///
/// ``APIClient`` runs this check on every answer the stack's gateway gives, so every stack test asserts it.
public struct OpenAPIContract: Sendable {
    struct Operation: Sendable {
        let method: String
        let segments: [Substring]
        let responses: [String: JSONValue]
    }

    let operations: [Operation]
    let schemas: [String: JSONValue]
    let sharedResponses: [String: JSONValue]

    /// The seven services' documents, read from the source tree and merged by the gateway's own merge.
    public static let platform: OpenAPIContract = {
        let services = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Services")
        let documents = ["Geo", "Habits", "Household", "Identity", "Messaging", "Notifications", "Social"].map {
            name -> [String: Any] in
            let file = services.appendingPathComponent("\(name)/\(name)Service/OpenAPI/openapi.json")
            guard let data = try? Data(contentsOf: file),
                let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { fatalError("cannot read \(file.path)") }
            return document
        }
        return OpenAPIContract(document: JSONValue(OpenAPIMerger.merge(documents)))
    }()

    /// A contract of one (merged) document; tests of the check itself use small ones.
    public init(document: JSONValue) {
        var operations: [Operation] = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                guard let responses = operation["responses"]?.objectValue else { continue }
                operations.append(
                    Operation(method: method.uppercased(), segments: path.split(separator: "/"), responses: responses))
            }
        }
        self.operations = operations
        self.schemas = document["components"]?["schemas"]?.objectValue ?? [:]
        self.sharedResponses = document["components"]?["responses"]?.objectValue ?? [:]
    }

    /// What is wrong with an answer to `method` on `path` (query included or not), by the document: empty when it
    /// conforms, or when the document has no such operation (the gateway's own pages, a method the path lacks).
    public func violations(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        guard let operation = operation(method: method, path: path) else { return [] }
        let responses = operation.responses
        guard var response = responses["\(status)"] ?? responses["\(status / 100)XX"] ?? responses["default"] else {
            return [
                "status \(status) is not documented (documented: \(responses.keys.sorted().joined(separator: ", ")))"
            ]
        }
        if let reference = response["$ref"]?.stringValue {
            guard let shared = reference.split(separator: "/").last.flatMap({ sharedResponses[String($0)] }) else {
                return ["unknown response reference \(reference)"]
            }
            response = shared
        }
        guard let content = response["content"]?.objectValue, !content.isEmpty else {
            return body.isEmpty || method == "HEAD"
                ? [] : ["status \(status) is documented without a body, but one came"]
        }
        if method == "HEAD" || status == 304 { return [] }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard
            let declared = content.first(where: { key, _ in
                key == mediaType || (key.hasSuffix("/*") && mediaType.hasPrefix(key.dropLast()))
            })
        else {
            return ["content type \(mediaType) is not one of \(content.keys.sorted())"]
        }
        guard mediaType.hasSuffix("json"), let schema = declared.value["schema"] else { return [] }
        guard let value = JSONValue(parsing: body) else {
            return ["the \(mediaType) body is not JSON"]
        }
        let problems = check(value, against: schema, at: "body")
        guard mediaType == "application/problem+json" else { return problems }
        return problems + checkProblemCode(value, listedIn: declared.value, status: status)
    }

    /// A problem's `code` must be one the operation lists for that status, as a named example of the answer: the
    /// codes an app switches on are part of the contract.
    private func checkProblemCode(_ problem: JSONValue, listedIn media: JSONValue, status: Int) -> [String] {
        guard let code = problem["code"]?.stringValue else { return [] }
        let listed = (media["examples"]?.objectValue ?? [:]).values.compactMap { $0["value"]?["code"]?.stringValue }
        guard !listed.contains(code) else { return [] }
        let title = problem["title"]?.stringValue ?? ""
        let detail = problem["detail"]?.stringValue ?? ""
        return [
            "problem code \(code) (\(title): \(detail)) is not listed for \(status) (listed: \(listed.sorted())); "
                + "add it to the operation's response as a named example"
        ]
    }

    func operation(method: String, path: String) -> Operation? {
        let segments = (path.split(separator: "?", maxSplits: 1).first ?? "").split(separator: "/")
        return operations.filter { operation in
            operation.method == method && operation.segments.count == segments.count
                && zip(operation.segments, segments).allSatisfy { template, segment in
                    template.hasPrefix("{") || template == segment
                }
        }.max { literalCount($0) < literalCount($1) }
    }

    private func literalCount(_ operation: Operation) -> Int {
        operation.segments.filter { !$0.hasPrefix("{") }.count
    }

    // MARK: JSON Schema (the subset the documents use)

    /// `closed`: a property no part of the schema describes is a violation (off inside an `allOf`, whose union
    /// of parts is checked once by the schema holding it).
    func check(_ value: JSONValue, against schema: JSONValue, at location: String, closed: Bool = true) -> [String] {
        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else { return ["\(location): unknown reference \(reference)"] }
            return check(value, against: target, at: location, closed: closed)
        }
        var problems: [String] = []
        if let parts = schema["allOf"]?.arrayValue {
            for part in parts { problems += check(value, against: part, at: location, closed: false) }
            if closed, case .object(let members) = value {
                let documented = documentedProperties(schema)
                for name in members.keys.sorted() where !documented.contains(name) {
                    problems.append("\(location).\(name): is sent but not documented")
                }
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let options = schema[keyword]?.arrayValue else { continue }
            let failures = options.map { check(value, against: $0, at: location) }
            if !failures.contains(where: \.isEmpty) {
                problems.append("\(location): matches none of \(keyword): \(failures.flatMap { $0 }.prefix(4))")
            }
        }
        if let constant = schema["const"], constant != value {
            problems.append("\(location): is \(value), must be \(constant)")
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            problems.append("\(location): \(value) is not one of \(allowed)")
        }
        if let type = schema["type"] {
            let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            guard types.contains(where: { value.isOfType($0) }) else {
                return problems + ["\(location): is \(value.typeName), must be \(types.joined(separator: " or "))"]
            }
        }
        switch value {
        case .object(let members):
            problems += checkObject(members, against: schema, at: location, closed: closed && schema["allOf"] == nil)
        case .array(let elements):
            if let minimum = schema["minItems"]?.doubleValue, Double(elements.count) < minimum {
                problems.append("\(location): has \(elements.count) items, fewer than \(minimum)")
            }
            if let maximum = schema["maxItems"]?.doubleValue, Double(elements.count) > maximum {
                problems.append("\(location): has \(elements.count) items, more than \(maximum)")
            }
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() {
                    problems += check(element, against: items, at: "\(location)[\(index)]")
                }
            }
        case .string(let string):
            problems += checkString(string, against: schema, at: location)
        case .integer, .number:
            let number = value.doubleValue ?? 0
            if let minimum = schema["minimum"]?.doubleValue, number < minimum {
                problems.append("\(location): \(value) is below the minimum \(minimum)")
            }
            if let maximum = schema["maximum"]?.doubleValue, number > maximum {
                problems.append("\(location): \(value) is above the maximum \(maximum)")
            }
        case .null, .bool:
            break
        }
        return problems
    }

    private func resolve(_ reference: String) -> JSONValue? {
        reference.split(separator: "/").last.flatMap { schemas[String($0)] }
    }

    /// The property names a schema and its `allOf` parts describe.
    private func documentedProperties(_ schema: JSONValue) -> Set<String> {
        if let reference = schema["$ref"]?.stringValue { return resolve(reference).map(documentedProperties) ?? [] }
        var names = Set((schema["properties"]?.objectValue ?? [:]).keys)
        for part in schema["allOf"]?.arrayValue ?? [] { names.formUnion(documentedProperties(part)) }
        return names
    }

    private func checkObject(
        _ members: [String: JSONValue], against schema: JSONValue, at location: String, closed: Bool
    ) -> [String] {
        var problems: [String] = []
        let properties = schema["properties"]?.objectValue ?? [:]
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
            problems.append("\(location).\(name): is required but missing")
        }
        for (name, member) in members {
            if let property = properties[name] {
                problems += check(member, against: property, at: "\(location).\(name)")
            } else if let additional = schema["additionalProperties"] {
                if additional == .bool(false) {
                    problems.append("\(location).\(name): is not a documented property")
                } else if additional.objectValue != nil {
                    problems += check(member, against: additional, at: "\(location).\(name)")
                }
            } else if closed && !properties.isEmpty && schema["oneOf"] == nil && schema["anyOf"] == nil {
                // Stricter than JSON Schema on purpose: a field the document does not describe is one a generated
                // client drops without a word. (An object with no `properties` is free-form.)
                problems.append("\(location).\(name): is sent but not documented")
            }
        }
        return problems
    }

    private func checkString(_ string: String, against schema: JSONValue, at location: String) -> [String] {
        var problems: [String] = []
        if let minimum = schema["minLength"]?.doubleValue, Double(string.count) < minimum {
            problems.append("\(location): is shorter than \(minimum) characters")
        }
        if let maximum = schema["maxLength"]?.doubleValue, Double(string.count) > maximum {
            problems.append("\(location): is longer than \(maximum) characters")
        }
        if let pattern = schema["pattern"]?.stringValue,
            string.range(of: pattern, options: .regularExpression) == nil
        {
            problems.append("\(location): \"\(string)\" does not match \(pattern)")
        }
        switch schema["format"]?.stringValue {
        case "date-time":
            if Self.dateTime(string) == nil {
                problems.append("\(location): \"\(string)\" is not an RFC 3339 date-time")
            }
        case "date":
            if string.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) == nil {
                problems.append("\(location): \"\(string)\" is not a date (YYYY-MM-DD)")
            }
        case "email":
            if !string.contains("@") { problems.append("\(location): \"\(string)\" is not an e-mail address") }
        default:
            break
        }
        return problems
    }

    static func dateTime(_ string: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return plain.date(from: string) ?? fractional.date(from: string)
    }
}

/// Any JSON value, parsed without a target type.
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text (any value at the top). Foundation's parser, not `Decodable`: a decoder finds a value's kind
    /// by failing to decode the others, and each failure throws, which made reading the platform's documents take
    /// seconds in a debug build.
    public init?(parsing data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        self.init(object)
    }

    init(_ object: Any) {
        switch object {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            // Booleans parse as NSNumbers of type `c` (char) on every platform.
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)
            case "f", "d": self = .number(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        case let array as [Any]:
            self = .array(array.map(JSONValue.init))
        case let object as [String: Any]:
            self = .object(object.mapValues(JSONValue.init))
        default:
            self = .null
        }
    }

    public subscript(key: String) -> JSONValue? { objectValue?[key] }
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    func isOfType(_ type: String) -> Bool {
        switch (type, self) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("integer", .integer), ("number", .integer), ("number", .number):
            true
        case ("integer", .number(let value)):
            value.rounded() == value
        default:
            false
        }
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .object(let members): "{\(members.keys.sorted().joined(separator: ", "))}"
        }
    }
}
