// Runs inside Chromium's DevTools trace viewer (devtools://devtools/bundled/
// trace_app.html): loads the trace the way "Load profile..." does, waits for
// the Performance panel to parse it, and returns what the panel shows, for
// tests/cli/trace_viewer.py to compare with the file.
async function loadTrace(traceText) {
  const Timeline = await import('./panels/timeline/timeline.js');
  const UI = await import('./ui/legacy/legacy.js');
  await UI.ViewManager.ViewManager.instance().showView('timeline');
  const panel = Timeline.TimelinePanel.TimelinePanel.instance();
  await panel.loadFromFile(new File([traceText], 'trace.json', {type: 'application/json'}));
  // Parsing runs after loadFromFile returns; the panel has a trace once done.
  let parsed = null;
  for (let i = 0; i < 600 && parsed === null; ++i) {
    await new Promise(resolve => setTimeout(resolve, 100));
    try {
      parsed = panel.getParsedTraceForLayoutTests();
    } catch (notYet) {
      parsed = null;
    }
  }
  if (parsed === null) {
    return {loaded: false, page: document.body.innerText.slice(0, 2000)};
  }
  const tracks = [];
  for (const [pid, process] of parsed.Renderer.processes) {
    for (const [tid, thread] of process.threads) {
      tracks.push({pid, tid, name: thread.name, slices: thread.entries.length});
    }
  }
  const chart = panel.getFlameChart().getMainDataProvider().timelineData();
  return {
    loaded: true,
    tracks,
    groups: chart.groups.map(group => group.name),
    chartEntries: chart.entryLevels.length,
    chartStarts: Array.from(chart.entryStartTimes),
    chartDurations: Array.from(chart.entryTotalTimes),
    flows: parsed.Flows.flows.map(flow => flow.map(e => ({tid: e.tid, ts: e.ts, name: e.name}))),
    warnings: Object.keys(parsed.Warnings.perWarning),
    bounds: {min: parsed.Meta.traceBounds.min, max: parsed.Meta.traceBounds.max},
  };
}
