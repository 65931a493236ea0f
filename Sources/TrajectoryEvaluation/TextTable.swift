import Foundation

/// A plain-text table for people: a header, rows of cells padded to their column's width
/// (text to the left, numbers to the right), and rules between sections.
struct TextTable {
    enum Alignment {
        case left, right
    }

    struct Column {
        var header: String
        var alignment: Alignment
    }

    private enum Row {
        case cells([String])
        case rule
    }

    private let columns: [Column]
    private var rows: [Row] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// The usual shape: a column of names on the left, then columns of numbers.
    init(nameHeader: String, numberHeaders: [String]) {
        self.init([Column(header: nameHeader, alignment: .left)] + numberHeaders.map { Column(header: $0, alignment: .right) })
    }

    /// Adds a row; it must have one cell per column.
    mutating func append(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row needs one cell per column")
        rows.append(.cells(cells))
    }

    /// Adds a line of dashes across the table.
    mutating func appendRule() {
        rows.append(.rule)
    }

    /// The table, one line per row, every line the same width.
    func rendered() -> String {
        var widths = columns.map(\.header.count)
        for case .cells(let cells) in rows {
            for (index, cell) in cells.enumerated() {
                widths[index] = max(widths[index], cell.count)
            }
        }
        let ruleLine = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        var lines = [line(columns.map(\.header), widths: widths), ruleLine]
        for row in rows {
            switch row {
            case .cells(let cells): lines.append(line(cells, widths: widths))
            case .rule: lines.append(ruleLine)
            }
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        zip(columns, zip(cells, widths)).map { column, cellAndWidth in
            let (cell, width) = cellAndWidth
            let padding = String(repeating: " ", count: width - cell.count)
            return column.alignment == .left ? cell + padding : padding + cell
        }.joined(separator: "  ")
    }
}

/// How numbers are written in tables.
enum CellFormat {
    /// A rate or ratio with three decimals.
    static func rate(_ value: Double) -> String {
        fixed(value, decimals: 3)
    }

    /// Pixels with two decimals, or a dash when there is no value.
    static func pixels(_ value: Double?) -> String {
        value.map { fixed($0, decimals: 2) } ?? "-"
    }

    /// A ratio with two decimals, or a dash when there is no value.
    static func ratio(_ value: Double?) -> String {
        value.map { fixed($0, decimals: 2) } ?? "-"
    }

    /// `value` rounded to `decimals` places, always with a point (the format takes no locale).
    static func fixed(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
