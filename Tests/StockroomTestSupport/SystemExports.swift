// The tests start programs, clusters and certificates with the same code the bench does, which
// lives in StockroomSystem; these are re-exported so that a test importing only this target
// finds them under the names it always has.
@_exported import class StockroomSystem.PostgresCluster
@_exported import enum StockroomSystem.Subprocess
