// What the AskUserQuestion end-to-end tests share: the Pi home that
// chooses the tool, the request the scripted model sends, and the result
// their answers give.

/** prepare's options for a Pi whose package registers AskUserQuestion. */
export const AUQ = { config: '{"tool":"AskUserQuestion"}', tool: "AskUserQuestion" };

/** The request the scripted model sends: a single-select question with a recommended option that has a preview, and a multi-select one. */
export const stack = {
  questions: [
    {
      id: "db",
      question: "Which database should the service use?",
      header: "Database",
      options: [
        { id: "lite", label: "SQLite", description: "Embedded, one file" },
        { id: "pg", label: "Postgres", description: "A server of its own", preview: "Runs everywhere; needs a server.", recommended: true },
      ],
    },
    {
      id: "feat",
      question: "Which features should ship first?",
      header: "Features",
      multiSelect: true,
      options: [
        { id: "auth", label: "Auth", description: "Log in and out" },
        { id: "pay", label: "Payments", description: "Cards and invoices" },
      ],
    },
  ],
  metadata: { source: "planning", flowId: "flow-7", tags: ["e2e"] },
};

/** The result the answers of the TUI and RPC tests give, as the tool's details. */
export const answered = {
  cancelled: false,
  answers: {
    db: { kind: "single", optionId: "pg", label: "Postgres" },
    feat: {
      kind: "multi",
      selections: [
        { optionId: "auth", label: "Auth" },
        { label: "Other", other: true, text: "Search" },
      ],
      empty: false,
    },
  },
  annotations: {
    db: { questionNotes: "for prod", optionNotes: { pg: "managed please" }, selectedPreview: "Runs everywhere; needs a server." },
  },
  metadata: { source: "planning", flowId: "flow-7" },
};

