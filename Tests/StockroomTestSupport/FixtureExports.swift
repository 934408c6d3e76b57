// The tests start programs, clusters and certificates with the same code the bench does, which
// lives in StockroomFixtures; these are re-exported so that a test importing only this target
// finds them under the names it always has.
@_exported import class StockroomFixtures.PostgresCluster
@_exported import enum StockroomFixtures.Subprocess
