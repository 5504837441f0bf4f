import GRDB

/// Records whose Swift properties are camelCase and whose columns are snake_case, the platform's SQL style.
public protocol SnakeCaseColumns: FetchableRecord, EncodableRecord {}

extension SnakeCaseColumns {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}
