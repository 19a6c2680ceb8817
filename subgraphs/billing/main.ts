import 'reflect-metadata';
import { runSubgraphService } from '../../platform/run-subgraph-service';
import { billingSubgraph } from '.';

// Runs the billing subgraph alone over HTTP (distributed mode); default port 4002. Its e-mail
// settings (SMTP_URL, MAIL_FROM, NOTIFICATION_POLL_MS, DATA_DIR) are this process's, read by the service's config loader.
runSubgraphService(billingSubgraph, 4002);
