import Foundation
import PlatformKit
import ServiceKit

/// A small bar chart of points per member, as SVG a client can show as is.
enum StatisticsChart {
    static func svg(bars: [(label: String, value: Int)], title: String) -> String {
        let width = 480, barHeight = 28, gap = 10, labelWidth = 140, top = 36
        let height = top + bars.count * (barHeight + gap) + 10
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="13">
            <text x="10" y="22" font-size="15" font-weight="bold">\(Markup.escaped(title))</text>

            """
        for (index, bar) in bars.enumerated() {
            let y = top + index * (barHeight + gap)
            let length = (width - labelWidth - 60) * bar.value / maximum
            svg += """
                <text x="10" y="\(y + 19)">\(Markup.escaped(String(bar.label.prefix(18))))</text>
                <rect x="\(labelWidth)" y="\(y)" width="\(max(length, 1))" height="\(barHeight)" fill="#4a90d9"/>
                <text x="\(labelWidth + length + 6)" y="\(y + 19)">\(bar.value)</text>

                """
        }
        return svg + "</svg>\n"
    }

    /// Escapes text for SVG: member names are user input.
}
