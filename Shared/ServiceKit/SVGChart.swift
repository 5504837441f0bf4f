import Foundation
import PlatformKit

/// Small SVG charts a client can show as is (no script, no external resources).
public enum SVGChart {
    /// One bar of a chart.
    public struct Bar: Sendable, Equatable {
        /// The label under (or beside) the bar; user text is escaped.
        public var label: String
        /// The bar's value; negative values draw as zero.
        public var value: Int

        /// Creates a bar.
        public init(label: String, value: Int) {
            self.label = label
            self.value = value
        }
    }

    /// A vertical column chart: one column per bar, oldest first, its value above it and its label below.
    public static func columns(_ bars: [Bar], title: String, color: String = "#4a90d9") -> String {
        let columnWidth = 34, gap = 8, left = 10, top = 40, plotHeight = 120, bottom = 34
        let width = max(240, left * 2 + bars.count * (columnWidth + gap))
        let height = top + plotHeight + bottom
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="11">
            <text x="\(left)" y="22" font-size="15" font-weight="bold">\(Markup.escaped(title))</text>

            """
        for (index, bar) in bars.enumerated() {
            let x = left + index * (columnWidth + gap)
            let length = plotHeight * max(bar.value, 0) / maximum
            let y = top + plotHeight - length
            svg += """
                <rect x="\(x)" y="\(y)" width="\(columnWidth)" height="\(max(length, 1))" fill="\(Markup.escaped(color))"/>
                <text x="\(x + columnWidth / 2)" y="\(y - 4)" text-anchor="middle">\(bar.value)</text>
                <text x="\(x + columnWidth / 2)" y="\(top + plotHeight + 16)" text-anchor="middle">\(Markup.escaped(String(bar.label.prefix(8))))</text>

                """
        }
        return svg + "</svg>\n"
    }

}
