import { Field, InputType, registerEnumType } from 'type-graphql';
import { NotFreeText } from '../../../platform/stored-text-rule';

/** Which of the tenant's two logos an upload replaces. */
export enum LogoKind {
  LOGO = 'LOGO',
  RECEIPT = 'RECEIPT',
}
registerEnumType(LogoKind, { name: 'LogoKind', description: 'LOGO: shown to patients; RECEIPT: printed on receipts' });

/** A file as GraphQL carries it: JSON holds only text, so the bytes travel as base64 (the REST bridge fills this from multipart). */
@InputType('UploadedFileInput', { description: 'A file: its bytes as base64, with the name and type the client claimed (the type is re-judged from the bytes)' })
export class UploadedFileInput {
  @Field(() => String, { nullable: true })
  filename?: string | null;

  @Field(() => String, { nullable: true, description: "The client's claim; ignored for the stored type" })
  contentType?: string | null;

  @Field({ description: 'The bytes, standard base64' })
  @NotFreeText('binary')
  base64!: string;
}
