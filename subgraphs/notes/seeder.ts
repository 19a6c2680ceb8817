import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/tenant-scope';
import { RequestAudit } from '../../platform/audit/request-audit';
import type { CreateNoteTemplateInput } from './inputs/create-note-template.input';
import { NoteTemplateService } from './services/note-template.service';
import { QuestionKind } from './types/question-kind';

// Paper forms as an earlier form migration imported them: one text area each, holding prompts,
// yes/no items, 0-10 scales, option lists, checkboxes and dates in free text.
const INTAKE_FORM = `NEW PATIENT INFORMATION
Reason for today's visit?
Who referred you to our clinic?
Preferred contact method: phone / email / text message
Date of birth (MM/DD/YYYY)*
Have you been seen at this clinic before? (yes/no)
Do you have health insurance? yes/no
How many times have you been hospitalised in the last 5 years?
Emergency contact name and phone number
Which of these conditions have you been diagnosed with? (check all that apply)
[ ] High blood pressure
[ ] Diabetes
[ ] Asthma
[ ] Heart disease
[ ] None of the above`;

const PAIN_FORM = `PAIN ASSESSMENT
Where is your pain located?
Rate your pain right now (0-10)*
Rate your pain at its worst in the past week (0-10)
When did the pain start? Date: ____________
How would you describe the pain? sharp / dull / burning / throbbing / aching
Does the pain wake you at night? Y/N
What makes the pain worse?
- [ ] Sitting
- [ ] Standing
- [ ] Walking
- [ ] Lifting
How much does the pain interfere with your daily activities, on a scale of 1 to 10?
Have you had any imaging (X-ray, MRI) for this problem? (yes/no)`;

const MEDICATION_FORM = `MEDICATION HISTORY
Are you currently taking any prescription medications? (yes/no)*
Please list each medication with dose and how often you take it
Any over-the-counter medicines or supplements? yes/no
Do you have any drug allergies? (yes / no / not sure)
Type of reaction:
[ ] Rash
[ ] Swelling
[ ] Difficulty breathing
[ ] Upset stomach
Date of your last dose of blood thinners, if any
How many prescriptions do you fill each month?
Pharmacy name and phone number
How do you take your medicines? on my own / with help from family / a carer gives them`;

/** The three demo templates: a few structured questions each, then the legacy text area to migrate. */
const TEMPLATES: CreateNoteTemplateInput[] = [
  {
    name: 'New patient intake',
    description: 'First visit: demographics, referral and medical history',
    questions: [
      { kind: QuestionKind.TEXT, label: 'Full name', required: true },
      { kind: QuestionKind.DATE, label: 'Date of birth', required: true },
      { kind: QuestionKind.TEXT_AREA, label: 'Paper intake form (imported)', helpText: 'Imported from the clinic\'s paper form', legacyContent: INTAKE_FORM, required: false },
    ],
  },
  {
    name: 'Pain assessment',
    description: 'Follow-up visits for musculoskeletal pain',
    questions: [
      { kind: QuestionKind.SCALE, label: 'Pain today', helpText: 'Scale from 0 to 10', required: true },
      { kind: QuestionKind.TEXT_AREA, label: 'Pain questionnaire (imported)', legacyContent: PAIN_FORM, required: false },
    ],
  },
  {
    name: 'Medication history',
    description: 'Reconciliation at intake and yearly review',
    questions: [
      { kind: QuestionKind.YES_NO, label: 'Any changes since your last visit?', required: true },
      { kind: QuestionKind.SINGLE_CHOICE, label: 'Who is filling in this form?', options: ['Patient', 'Family member', 'Carer'], required: false },
      { kind: QuestionKind.TEXT_AREA, label: 'Medication questionnaire (imported)', legacyContent: MEDICATION_FORM, required: false },
    ],
  },
];

/** Demo data for a new tenant: note templates whose legacy questions the migration stream can work on. */
export async function seedNotesDemo(em: EntityManager, scope: TenantScope): Promise<void> {
  // Demo seeding is the platform's own writing, like every subgraph's seeder: no request, so no audit record.
  const service = new NoteTemplateService(em, scope, new RequestAudit(null, null));
  for (const template of TEMPLATES) await service.create(template);
}
