// issue 26 "Done when": the seed profile still passes everything it passed: the live-mode flows of platform-flows.ts
// (sale → Paid through the push, cancel, expiry, refunds, refusals, an 11-line cart, a 31-character code) against the
// sandbox's default profile, the interface document's answers.
import { describePlatformFlows } from '../../support/live-platform-flows.ts';

describePlatformFlows('seed');
