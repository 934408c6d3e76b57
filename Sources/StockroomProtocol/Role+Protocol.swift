import StockroomText

/// Roles are shop rules (accounts hold one) and wire data (the command table names one per
/// command); they live with the text rules both modules share.
public typealias Role = StockroomText.Role
