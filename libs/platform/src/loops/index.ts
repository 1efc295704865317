/**
 * Background loops: every periodic job of an app (sweepers, reconcilers, the outbox relay and pruner, the
 * webhook delivery and renewal loops) is a provider that extends `PeriodicLoop`, in a file named
 * `<what>.loop.ts` with a class named `<What>Loop`. The class gives its name, its interval (from env where it
 * is configurable) and one run's work (claimed with FOR UPDATE SKIP LOCKED); `PeriodicLoop` starts it when
 * the app is ready on @nestjs/schedule's SchedulerRegistry, never lets it overlap itself, drains it on
 * shutdown and exports the same metrics for each loop. The expiry sweeps are one class, `ExpirySweepLoop`,
 * registered once per sweep with its name, interval and the provider that claims and ends the due rows. Nothing else in apps/ or libs/ uses `setInterval`: a
 * timer that lives only as long as one operation uses `repeatDuring`.
 */
export * from './expiry-sweep.loop';
export * from './periodic-loop';
export * from './repeat-during';
