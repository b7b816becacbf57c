import { useShallow } from 'zustand/react/shallow';
import { localized, type Lang, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { selectQuestionNow } from '../store/predict';
import type { QuestionSpec } from '../store/types';

function answerText(answer: string, t: Translate): string {
  if (answer === 'yes') return t('answerYes');
  if (answer === 'no') return t('answerNo');
  if (answer === 'nobody') return t('answerNobody');
  return answer;
}

const selectPredictInput = (s: SimState) => ({ predict: s.predict, predictions: s.predictions, lang: s.lang });

/**
 * Predict, then reveal, in two rows of fixed height while the mode is on (stepping never moves the
 * regions below): what the step just taken did next to the learner's answer, and the question
 * asked before the next step.
 */
export function PredictPanel() {
  const t = useT();
  const { predict, predictions, lang } = useSimStore(useShallow(selectPredictInput));
  const now = useSimStore(selectQuestionNow);
  if (!predict) return null;
  const reveal = now?.reveal ?? null;
  const ask = now?.ask ?? null;
  return (
    <section className="predict" aria-labelledby="predict-heading" data-testid="predict">
      <h2 id="predict-heading" className="predict__heading">
        {t('predictHeading')}
      </h2>
      <div className="predict__row" data-testid="predict.reveal" aria-live="polite">
        {reveal && <Reveal question={reveal.question} truth={reveal.truth} answer={predictions[reveal.question.step]} lang={lang} t={t} />}
      </div>
      <div className="predict__row">
        {ask ? <Ask question={ask} answer={predictions[ask.step]} lang={lang} t={t} /> : <p className="predict__hint">{t('predictNone')}</p>}
      </div>
    </section>
  );
}

function Reveal({ question, truth, answer, lang, t }: { question: QuestionSpec; truth: string | null; answer: string | undefined; lang: Lang; t: Translate }) {
  if (truth === null) return <p className="predict__hint">{t('predictOtherWay')}</p>;
  return (
    <>
      <p className="predict__ask predict__ask--past">{localized(question.ask, lang)}</p>
      <p data-testid="predict.yours">{answer === undefined ? t('predictNoAnswer') : t('predictYou', { answer: answerText(answer, t) })}</p>
      <p data-testid="predict.truth">{t('predictTruth', { answer: answerText(truth, t) })}</p>
      {answer !== undefined && (
        <p className={`predict__verdict ${answer === truth ? 'is-right' : 'is-wrong'}`} data-testid="predict.verdict">
          {answer === truth ? t('predictRight') : t('predictWrong')}
        </p>
      )}
    </>
  );
}

function Ask({ question, answer, lang, t }: { question: QuestionSpec; answer: string | undefined; lang: Lang; t: Translate }) {
  const store = useSimStoreApi();
  return (
    <>
      <p className="predict__ask" data-testid="predict.question">
        {localized(question.ask, lang)}
      </p>
      <div className="predict__options" role="radiogroup" aria-label={t('predictChoice')}>
        {question.options.map((option) => (
          <label key={option} className={`predict__option${answer === option ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={`predict-${question.step}`}
              value={option}
              checked={answer === option}
              onChange={() => store.getState().answerQuestion(question.step, option)}
            />
            <span>{answerText(option, t)}</span>
          </label>
        ))}
      </div>
      <p className="predict__hint">{answer === undefined ? t('predictHint') : t('predictThenStep')}</p>
    </>
  );
}
