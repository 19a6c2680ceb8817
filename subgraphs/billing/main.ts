import 'reflect-metadata';
import { runSubgraphService } from '../shared/run-subgraph-service';
import { readMailSettings } from './notifications/mail-settings';
import { billingSubgraph } from '.';

// Runs the billing subgraph alone over HTTP (distributed mode); default port 4002. Its e-mail
// settings (SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS, DATA_DIR) are this process's: checked here first.
const { problems } = readMailSettings(process.env);
if (problems.length) {
  console.error(`The billing subgraph cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
runSubgraphService(billingSubgraph, 4002);
