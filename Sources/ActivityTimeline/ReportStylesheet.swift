/// The report's CSS: light and dark schemes from `prefers-color-scheme`, and a print layout.
///
/// Bar colours keep white text at a contrast of at least 4.5:1 in both schemes; the outcome is
/// also spelled by a symbol in every label, so colour is never the only sign of it.
///
/// The timeline clips what sticks out on the right (a 2 px bar at the very end, a tick line at
/// 100 %), so its box scrolls only when zoomed; labels near the end are drawn left of their tick.
/// Tables scroll in their own box on a narrow screen, so the page never scrolls sideways.
enum ReportStylesheet {
    static let css = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;\
        --success:#1a7f37;--failure:#cf222e;--cancelled:#9a6700;--skipped:#6e7781;--abandoned:#8250df;\
        --agg:#818b98;--cp:#0969da;--row:24px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;\
        --panel:#151b23;--success:#238636;--failure:#da3633;--cancelled:#9e6a03;--skipped:#59636e;\
        --abandoned:#8957e5;--agg:#656c76;--cp:#4493f8}}
        *{box-sizing:border-box}
        body{margin:0 auto;padding:24px;max-width:1600px;background:var(--bg);color:var(--fg)}
        h1{font-size:1.6em;margin:0 0 4px}h2{font-size:1.2em;margin:32px 0 8px;border-bottom:1px solid var(--line);\
        padding-bottom:4px}h3{font-size:1em;margin:0 0 6px}
        .sub,.muted{color:var(--muted)}
        .stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:8px;margin:0}
        .stats div{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 12px}
        .stats dt{color:var(--muted);font-size:.85em}.stats dd{margin:0;font-size:1.2em;font-weight:600}
        .toolbar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
        .toolbar button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:6px;\
        background:var(--panel);color:var(--fg);cursor:pointer}
        .legend{display:flex;flex-wrap:wrap;gap:12px;margin-left:auto;font-size:.9em}
        .legend span::before{content:"";display:inline-block;width:12px;height:12px;border-radius:3px;\
        margin-right:4px;vertical-align:-1px;background:var(--c)}
        .legend .lg-cp::before{background:none;outline:2px solid var(--cp);outline-offset:-2px}
        .tl-scroll{overflow-x:auto;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
        .tl{position:relative;width:100%;min-width:100%;overflow-x:clip}
        .axis{position:sticky;top:0;height:24px;border-bottom:1px solid var(--line);background:var(--panel);z-index:2}
        .tick{position:absolute;top:0;bottom:0;border-left:1px solid var(--line)}
        .tick span{position:absolute;left:4px;top:3px;font-size:.8em;color:var(--muted);white-space:nowrap}\
        .tick.end span{left:auto;right:4px}
        .lanes{position:relative;margin:4px 0}
        .bar{position:absolute;height:calc(var(--row) - 4px);min-width:2px;border-radius:3px;overflow:hidden;\
        white-space:nowrap;text-overflow:ellipsis;color:#fff;font-size:12px;line-height:calc(var(--row) - 4px);\
        padding:0 4px;background:var(--success);cursor:pointer}
        .bar:hover,.bar:focus-visible{filter:brightness(1.15);z-index:1}
        .bar.sel{outline:2px solid var(--fg);outline-offset:1px;z-index:1}
        .st-success{--c:var(--success);background:var(--success)}.st-failure{--c:var(--failure);background:var(--failure)}
        .st-cancelled{--c:var(--cancelled);background:var(--cancelled)}
        .st-skipped{--c:var(--skipped);background:var(--skipped)}
        .st-abandoned{--c:var(--abandoned);background:var(--abandoned)}
        .bar.cp{box-shadow:0 0 0 2px var(--cp);font-weight:600}
        .bar.agg{background:repeating-linear-gradient(135deg,var(--agg) 0 4px,transparent 4px 8px);\
        color:var(--fg);border:1px solid var(--agg)}
        .bar.agg.has-failure{border-color:var(--failure)}
        h3.st-success,h3.st-failure,h3.st-cancelled,h3.st-skipped,h3.st-abandoned{background:none;color:inherit}
        #details{margin-top:8px;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:10px 14px;\
        min-height:3em}
        #details dl,#tip dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
        #details dt,#tip dt{color:var(--muted)}#details dd,#tip dd{margin:0;overflow-wrap:anywhere}
        #tip{position:fixed;z-index:10;max-width:420px;background:var(--bg);border:1px solid var(--line);\
        border-radius:6px;padding:8px 10px;box-shadow:0 4px 16px rgb(0 0 0/.25);pointer-events:none;font-size:.9em}
        .table-scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
        th{color:var(--muted);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        .share{display:inline-block;height:8px;background:var(--cp);border-radius:2px;vertical-align:0;margin-right:6px}
        .failure{border:1px solid var(--line);border-left:4px solid var(--failure);border-radius:6px;\
        padding:8px 12px;margin:8px 0}
        .failure.abandoned{border-left-color:var(--abandoned)}
        pre.log{background:var(--panel);padding:8px;border-radius:4px;overflow-x:auto;white-space:pre-wrap;\
        font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:6px 0 0}
        .lv-error{color:var(--failure)}.lv-warning{color:var(--cancelled)}.lv-debug{color:var(--muted)}
        code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
        @media print{body{padding:0;max-width:none;background:#fff;color:#000}.toolbar button,#tip,#details{display:none}\
        .tl{width:100%!important}.tl-scroll{overflow:visible}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}\
        section{break-inside:auto}.failure,tr{break-inside:avoid}h2{break-after:avoid}}
        """
}
