/// Text made safe for HTML, XML and SVG: inside elements and inside single- or double-quoted attributes.
public enum Markup {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
