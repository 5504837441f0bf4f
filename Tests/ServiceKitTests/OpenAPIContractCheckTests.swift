import Foundation
import TestSupport
import Testing

/// The check every stack test runs on every answer: each kind of mismatch is caught, and a conforming answer passes.
@Suite struct OpenAPIContractCheckTests {
    static let document = #"""
        {
          "paths": {
            "/v1/things/{thing}": {
              "get": {
                "responses": {
                  "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                  "404": {"content": {"application/problem+json": {
                    "schema": {"type": "object"},
                    "examples": {"not_found": {"value": {"code": "not_found"}}}
                  }}},
                  "default": {"$ref": "#/components/responses/PlatformProblem"}
                }
              }
            },
            "/v1/things/mine": {"get": {"responses": {"204": {"description": "Nothing."}}}}
          },
          "components": {
            "schemas": {
              "Base": {"type": "object", "properties": {"id": {"type": "string", "format": "date-time"}}, "required": ["id"]},
              "Thing": {"allOf": [
                {"$ref": "#/components/schemas/Base"},
                {"type": "object", "properties": {
                  "count": {"type": "integer", "minimum": 0},
                  "note": {"type": ["string", "null"]},
                  "kind": {"type": "string", "enum": ["a", "b"]}
                }, "required": ["count", "note"]}
              ]}
            },
            "responses": {
              "PlatformProblem": {"content": {"application/problem+json": {
                "schema": {"type": "object"},
                "examples": {"rate_limited": {"value": {"code": "rate_limited"}}}
              }}}
            }
          }
        }
        """#

    let contract: OpenAPIContract

    init() throws {
        let document = try #require(JSONValue(parsing: Data(Self.document.utf8)))
        contract = OpenAPIContract(document: document)
    }

    func violations(
        _ body: String, path: String = "/v1/things/7", status: Int = 200, type: String = "application/json"
    ) -> [String] {
        contract.violations(method: "GET", path: path, status: status, contentType: type, body: Data(body.utf8))
    }

    @Test func aConformingAnswerPasses() {
        #expect(violations(#"{"id": "2026-11-25T10:00:00Z", "count": 2, "note": null, "kind": "a"}"#) == [])
        #expect(violations("", path: "/v1/things/mine", status: 204) == [])
        #expect(violations(#"{"code": "not_found"}"#, status: 404, type: "application/problem+json") == [])
        #expect(violations(#"{"code": "rate_limited"}"#, status: 429, type: "application/problem+json") == [])
        #expect(violations("anything", path: "/v1/elsewhere", status: 500) == [], "no such operation: nothing to check")
    }

    @Test(arguments: [
        (#"{"count": 2, "note": null}"#, "body.id: is required but missing"),
        (#"{"id": "yesterday", "count": 2, "note": null}"#, "is not an RFC 3339 date-time"),
        (#"{"id": "2026-11-25T10:00:00Z", "count": "2", "note": null}"#, "body.count: is a string, must be integer"),
        (#"{"id": "2026-11-25T10:00:00Z", "count": -1, "note": null}"#, "below the minimum"),
        (#"{"id": "2026-11-25T10:00:00Z", "count": 2}"#, "body.note: is required but missing"),
        (#"{"id": "2026-11-25T10:00:00Z", "count": 2, "note": null, "kind": "c"}"#, "is not one of"),
        (
            #"{"id": "2026-11-25T10:00:00Z", "count": 2, "note": null, "extra": 1}"#,
            "body.extra: is sent but not documented"
        ),
        ("not json", "is not JSON"),
    ])
    func aMismatchedBodyIsNamed(body: String, expected: String) {
        let found = violations(body)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    @Test func anUndocumentedStatusTypeOrProblemCodeIsNamed() {
        #expect(
            violations("{}", path: "/v1/things/mine", status: 200).first?.contains("status 200 is not documented")
                == true)
        #expect(violations("hi", type: "text/plain").first?.contains("content type text/plain") == true)
        #expect(
            violations(#"{"code": "gone"}"#, status: 404, type: "application/problem+json").first?
                .contains("problem code gone") == true)
        #expect(
            violations(#"{"code": "gone"}"#, status: 503, type: "application/problem+json").first?
                .contains("problem code gone") == true)
        #expect(violations("{}", path: "/v1/things/mine", status: 204).first?.contains("without a body") == true)
    }
}
