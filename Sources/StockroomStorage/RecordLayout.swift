/// What a record made by `RecordWriter` holds, named by its first number. Both stores' logs
/// are such records, numbered from this one list, so a reader meeting a number it does not know
/// (a newer server's, or the other log's) refuses the record instead of guessing.
///
/// The two logs hold different things on purpose. The SQLite commit log keeps a commit's
/// results (the rows it left): a restart must restore exactly what was acknowledged, even with
/// a catalogue that changed since, and a fold copies them into the tables without the shop. The
/// PostgreSQL change log keeps a change's causes (its mutations): the other nodes replay them
/// into their caches, with their events, and check the replay by the digest.
enum RecordLayout: UInt64 {
  /// A group commit's rows: `CommitRecord`, in SQLite's `commit_log`.
  case commitRows = 1
  /// A change's mutations: `MutationRecord`, in PostgreSQL's `changes.record`.
  case mutations = 2
}
