/** The page's styles: no external font, image or sheet, so the page works offline. */
export const PAGE_STYLE = `
:root { color-scheme: light; --ok: #1a7f37; --bad: #c2410c; --fail: #b91c1c; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; }
header.top { display: flex; gap: 16px; align-items: baseline; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--bg); }
header.top h1 { font-size: 16px; margin: 0; }
.layout { display: grid; grid-template-columns: 300px 1fr; min-height: calc(100vh - 44px); }
nav.runs { border-right: 1px solid var(--line); overflow-y: auto; padding: 8px; }
nav.runs a { display: block; padding: 6px 8px; border-radius: 6px; color: inherit; text-decoration: none; border: 1px solid transparent; margin-bottom: 4px; }
nav.runs a:hover { background: var(--bg); }
nav.runs a.selected { border-color: #0969da; background: #ddf4ff; }
nav.runs .sub { margin-left: 14px; font-size: 12px; }
main { padding: 12px 20px; overflow-x: hidden; }
h2 { font-size: 17px; margin: 4px 0; } h3 { font-size: 15px; margin: 6px 0; } h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 8px 0 2px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--bg); padding: 6px 8px; border-radius: 6px; margin: 2px 0; max-height: 320px; overflow: auto; }
.muted { color: var(--muted); }
.tag { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; background: #eaeef2; }
.status-complete, .decision-accept, .decision-runtools { background: #dafbe1; color: var(--ok); }
.status-failed, .status-aborted, .decision-fail-fast, .decision-exhausted, .decision-gave-up { background: #ffebe9; color: var(--fail); }
.status-suspended, .status-running, .status-stopped { background: #fff8c5; color: #7d4e00; }
.decision-retry, .decision-retry-other, .decision-re-ask { background: #fff1e5; color: var(--bad); }
.ephemeral { background: #fbefff; color: #8250df; text-transform: none; letter-spacing: 0; }
.rule { font: 12px ui-monospace, monospace; text-transform: none; letter-spacing: 0; background: #ddf4ff; color: #0969da; padding: 0 6px; border-radius: 10px; }
.segment { border-left: 3px solid var(--line); padding-left: 12px; margin: 12px 0; }
.step { margin: 10px 0 18px; }
.attempts, .pair { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(340px, 1fr); gap: 10px; overflow-x: auto; padding-bottom: 6px; }
.attempt { border: 1px solid var(--line); border-top: 4px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
.attempt header { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.attempt header h3 { margin: 0; }
.outcome-accepted { border-top-color: var(--ok); } .outcome-rejected { border-top-color: var(--bad); } .outcome-failed { border-top-color: var(--fail); }
.message .role { font-size: 12px; color: var(--muted); } .message.is-ephemeral pre { background: #fbefff; }
.feedback pre { background: #fff8c5; }
.error { color: var(--fail); }
.banner { padding: 6px 10px; border-radius: 6px; }
.banner.suspended { background: #fff8c5; } .banner.resumed, .banner.recovered { background: #ddf4ff; }
.tools { padding-left: 18px; }
.sub-agent { border: 1px dashed var(--line); border-radius: 8px; padding: 6px 10px; margin: 6px 0; background: #fcfcfd; }
.compare { border: 2px solid #0969da; border-radius: 8px; padding: 8px; margin: 10px 0; }
.cost-chart { margin: 8px 0; } .cost-chart svg { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.cost-chart .bar { fill: #8c959f; } .cost-chart .bar.outcome-accepted { fill: var(--ok); } .cost-chart .bar.outcome-rejected { fill: var(--bad); } .cost-chart .bar.outcome-failed { fill: var(--fail); } .cost-chart .bar.outcome-sub-agents { fill: #8250df; }
.cost-chart .running { fill: none; stroke: #0969da; stroke-width: 2; } .cost-chart .axis { stroke: var(--line); }
.cost-chart text { font-size: 11px; fill: var(--muted); } .cost-chart .tick { text-anchor: middle; }
.notice { background: #fff8c5; padding: 6px 10px; border-radius: 6px; }
`;
